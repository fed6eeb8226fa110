-- Slide quality judged by the expert (spec 2 §7 /judge/slide/store and
-- update; §5 Evaluation: grades A to D, D is not qualified). One judgement
-- per slide; the sending hospital sees it beside its slides.
CREATE TABLE slide_judgements (
    id {{ID}},
    consult_id BIGINT NOT NULL REFERENCES consultations(id),
    slide_id BIGINT NOT NULL REFERENCES slides(id),
    grade TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    judged_by BIGINT NOT NULL REFERENCES users(id),
    created_at {{TS}} NOT NULL,
    updated_at {{TS}} NOT NULL
);
CREATE UNIQUE INDEX slide_judgements_slide ON slide_judgements(slide_id);
CREATE INDEX slide_judgements_consult ON slide_judgements(consult_id);
