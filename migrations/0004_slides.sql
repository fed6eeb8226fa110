-- Slide uploads (tus) and viewing: where the file is, the upload's id and
-- progress, the checksum the browser sent, the pyramid's shape and the
-- reader's properties; who has looked at which slide (not_view_count).
-- status: -1 removed, 0 uploading, 1 uploaded, 2 processing, 3 failed.

ALTER TABLE slides ADD COLUMN path TEXT NOT NULL DEFAULT '';
ALTER TABLE slides ADD COLUMN upload_id TEXT NOT NULL DEFAULT '';
ALTER TABLE slides ADD COLUMN progress INTEGER NOT NULL DEFAULT 0;
ALTER TABLE slides ADD COLUMN client_sha256 TEXT NOT NULL DEFAULT '';
ALTER TABLE slides ADD COLUMN levels INTEGER NOT NULL DEFAULT 0;
ALTER TABLE slides ADD COLUMN associated TEXT NOT NULL DEFAULT '';
ALTER TABLE slides ADD COLUMN properties {{JSON}} NOT NULL DEFAULT '{}';
ALTER TABLE slides ADD COLUMN upload_consult_id BIGINT;

CREATE INDEX slides_hospital ON slides(hospital_id, status);
CREATE INDEX slides_upload ON slides(upload_id);
CREATE INDEX slides_status ON slides(status);

CREATE TABLE slide_views (
    slide_id BIGINT NOT NULL REFERENCES slides(id),
    user_id BIGINT NOT NULL REFERENCES users(id),
    first_viewed_at {{TS}} NOT NULL,
    last_viewed_at {{TS}} NOT NULL,
    view_count INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (slide_id, user_id)
);
CREATE INDEX slide_views_user ON slide_views(user_id);
