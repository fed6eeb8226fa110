-- Advice (spec 2 §3 Diagnosis type 2, §7 /consultation/advice, doctor_advice,
-- /third/addadvice): the expert orders special exams (immunohistochemistry,
-- special stain, molecular pathology) or technical re-work (re-cut, deep
-- cut…) from the site; the site executes it or, for a special exam, passes it
-- to a third party, who records the result.
CREATE TABLE advices (
    id {{ID}},
    consult_id BIGINT NOT NULL REFERENCES consultations(id),
    kind TEXT NOT NULL,
    item TEXT NOT NULL,
    markers TEXT NOT NULL DEFAULT '',
    block TEXT NOT NULL DEFAULT '',
    remark TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL DEFAULT 'pending',
    created_by BIGINT NOT NULL REFERENCES users(id),
    created_at {{TS}} NOT NULL,
    third_id BIGINT REFERENCES users(id),
    transferred_at {{TS}},
    result TEXT NOT NULL DEFAULT '',
    done_by BIGINT REFERENCES users(id),
    done_at {{TS}},
    updated_at {{TS}} NOT NULL
);
CREATE INDEX advices_consult ON advices(consult_id, kind);
CREATE INDEX advices_third ON advices(third_id, status);

-- Images captured from the slide viewer and saved to the case (spec 2 §7
-- save_shots); the selected ones go into the report.
CREATE TABLE case_shots (
    id {{ID}},
    consult_id BIGINT NOT NULL REFERENCES consultations(id),
    file_id BIGINT NOT NULL REFERENCES files(id),
    slide_id BIGINT REFERENCES slides(id),
    caption TEXT NOT NULL DEFAULT '',
    selected INTEGER NOT NULL DEFAULT 1,
    created_by BIGINT NOT NULL REFERENCES users(id),
    created_at {{TS}} NOT NULL,
    deleted_at {{TS}}
);
CREATE INDEX case_shots_consult ON case_shots(consult_id);
