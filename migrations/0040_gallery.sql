-- The gallery of a case's image attachments (spec 1 §4 Gallery): the order,
-- whether an image is checked for the report, its annotation labels and,
-- once rotated or cropped, the edited image. A row is written the first
-- time an image is changed; the attachment's own file is its original.
CREATE TABLE gallery_images (
    consult_id BIGINT NOT NULL REFERENCES consultations(id),
    file_id BIGINT NOT NULL REFERENCES files(id),
    edited_file_id BIGINT REFERENCES files(id),
    checked INTEGER NOT NULL DEFAULT 0,
    sort INTEGER NOT NULL DEFAULT 0,
    labels TEXT NOT NULL DEFAULT '[]',
    updated_by BIGINT NOT NULL REFERENCES users(id),
    updated_at {{TS}} NOT NULL,
    PRIMARY KEY (consult_id, file_id)
);
