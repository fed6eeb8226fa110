-- Annotations on slides, one set per slide and user (issue 5): the whole set
-- as a JSON array of labels in full-resolution image pixels, replaced by
-- each save. Others who may see the slide read it; only its author writes it.

CREATE TABLE slide_annotations (
    slide_id BIGINT NOT NULL REFERENCES slides(id),
    user_id BIGINT NOT NULL REFERENCES users(id),
    labels {{JSON}} NOT NULL DEFAULT '[]',
    label_count INTEGER NOT NULL DEFAULT 0,
    version INTEGER NOT NULL DEFAULT 1,
    updated_at {{TS}} NOT NULL,
    PRIMARY KEY (slide_id, user_id)
);
CREATE INDEX slide_annotations_user ON slide_annotations(user_id);
