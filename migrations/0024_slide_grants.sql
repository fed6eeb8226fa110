-- Slide grants (issue 18, finding 4): a signed slide URL stands for the
-- grant of one slide to one session, valid while the session lives, the user
-- may still see the slide and the grant has not expired. The viewer renews
-- the expiry while it is open, so the URLs (and the browser's cached tiles)
-- stay the same. A grant goes with its session.
CREATE TABLE slide_grants (
    slide_id BIGINT NOT NULL REFERENCES slides(id),
    session_id BIGINT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    expires_at {{TS}} NOT NULL,
    PRIMARY KEY (slide_id, session_id)
);
CREATE INDEX slide_grants_session ON slide_grants(session_id);

-- The single signing key gives way to a rotatable ring (slide_url_keys);
-- URLs signed with it were bearer links and end here.
DELETE FROM settings WHERE key = 'slide_url_secret';
