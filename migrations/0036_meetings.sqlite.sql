-- Live meetings on a case (issue 15): one expert presents, the invited
-- look at the same field of view. view holds the presenter's last viewer
-- state (JSON) for those who join late. A meeting ends (ended_at) on sign,
-- on submit for review, when its presenter moves to another case, or by
-- hand.
CREATE TABLE meetings (
    id {{ID}},
    consult_id BIGINT NOT NULL REFERENCES consultations(id),
    consult_no TEXT NOT NULL DEFAULT '',
    created_by BIGINT NOT NULL REFERENCES users(id),
    presenter_id BIGINT NOT NULL REFERENCES users(id),
    view TEXT NOT NULL DEFAULT '',
    end_reason TEXT NOT NULL DEFAULT '',
    created_at {{TS}} NOT NULL,
    ended_at {{TS}}
);
CREATE INDEX meetings_consult ON meetings(consult_id, ended_at);
CREATE INDEX meetings_presenter ON meetings(presenter_id, ended_at);

CREATE TABLE meeting_members (
    meeting_id BIGINT NOT NULL REFERENCES meetings(id),
    user_id BIGINT NOT NULL REFERENCES users(id),
    name TEXT NOT NULL DEFAULT '',
    invited_at {{TS}} NOT NULL,
    joined_at {{TS}},
    left_at {{TS}},
    PRIMARY KEY (meeting_id, user_id)
);
CREATE INDEX meeting_members_user ON meeting_members(user_id);
