-- Report templates (spec 1 §2 /setting/report, spec 2 "report template
-- designer"): per report kind, which sections print, in which order, under
-- which headings in Chinese and English. layout is report.Layout as JSON.
-- One template of each kind is in use (active = 1); the seeded defaults
-- print exactly as reports printed before templates were configurable
-- (report.DefaultLayout; a test keeps the two equal).
CREATE TABLE report_templates (
    id {{ID}},
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    active INTEGER NOT NULL DEFAULT 0,
    layout {{JSON}} NOT NULL,
    created_at {{TS}} NOT NULL,
    updated_at {{TS}} NOT NULL
);
CREATE INDEX report_templates_kind ON report_templates(kind, active);
INSERT INTO report_templates (kind, name, active, layout, created_at, updated_at) VALUES
    ('routine', '常规报告（默认）', 1, '{"title_zh":"远程病理会诊报告","title_en":"Remote Pathology Consultation Report","header":{"center":true,"hospital":true,"report_no":true,"verify":true},"sections":[{"key":"patient","show":true,"fields":["name","gender","age","pathology_number","consult_no","inspection_date","department","doctor","outpatient_number","admission_number","ward","bed_no"]},{"key":"clinical","show":true,"heading_zh":"临床诊断","heading_en":"Clinical diagnosis"},{"key":"specimens","show":true,"heading_zh":"送检标本","heading_en":"Specimens"},{"key":"gross","show":true,"heading_zh":"大体所见","heading_en":"Gross description"},{"key":"microscopic","show":true,"heading_zh":"镜下所见","heading_en":"Microscopic description"},{"key":"immunohistochemistry","show":true,"heading_zh":"免疫组化","heading_en":"Immunohistochemistry"},{"key":"diagnosis","show":true,"heading_zh":"病理诊断","heading_en":"Pathological diagnosis"},{"key":"images","show":true,"heading_zh":"图像","heading_en":"Images"},{"key":"remark","show":true,"heading_zh":"备注","heading_en":"Remarks"},{"key":"critical","show":true,"heading_zh":"危急值","heading_en":"Critical values"},{"key":"signatures","show":true},{"key":"dates","show":true}]}',
    CURRENT_TIMESTAMP, CURRENT_TIMESTAMP);
INSERT INTO report_templates (kind, name, active, layout, created_at, updated_at) VALUES
    ('frozen', '冰冻报告（默认）', 1, '{"title_zh":"术中冰冻病理会诊报告","title_en":"Intraoperative Frozen Section Consultation Report","header":{"center":true,"hospital":true,"report_no":true,"verify":true},"sections":[{"key":"patient","show":true,"fields":["name","gender","age","pathology_number","consult_no","inspection_date","department","doctor","outpatient_number","admission_number","ward","bed_no"]},{"key":"clinical","show":true,"heading_zh":"临床诊断","heading_en":"Clinical diagnosis"},{"key":"specimens","show":true,"heading_zh":"送检标本","heading_en":"Specimens"},{"key":"gross","show":true,"heading_zh":"大体所见","heading_en":"Gross description"},{"key":"diagnosis","show":true,"heading_zh":"冰冻诊断","heading_en":"Frozen section diagnosis"},{"key":"images","show":true,"heading_zh":"图像","heading_en":"Images"},{"key":"remark","show":true,"heading_zh":"备注","heading_en":"Remarks"},{"key":"critical","show":true,"heading_zh":"危急值","heading_en":"Critical values"},{"key":"signatures","show":true},{"key":"dates","show":true},{"key":"microscopic","show":false,"heading_zh":"镜下所见","heading_en":"Microscopic description"},{"key":"immunohistochemistry","show":false,"heading_zh":"免疫组化","heading_en":"Immunohistochemistry"}]}',
    CURRENT_TIMESTAMP, CURRENT_TIMESTAMP);
INSERT INTO report_templates (kind, name, active, layout, created_at, updated_at) VALUES
    ('cell', '细胞学报告（默认）', 1, '{"title_zh":"细胞病理会诊报告","title_en":"Cytopathology Consultation Report","header":{"center":true,"hospital":true,"report_no":true,"verify":true},"sections":[{"key":"patient","show":true,"fields":["name","gender","age","pathology_number","consult_no","inspection_date","department","doctor","outpatient_number","admission_number","ward","bed_no"]},{"key":"clinical","show":true,"heading_zh":"临床诊断","heading_en":"Clinical diagnosis"},{"key":"specimens","show":true,"heading_zh":"送检标本","heading_en":"Specimens"},{"key":"microscopic","show":true,"heading_zh":"细胞学所见","heading_en":"Cytological findings"},{"key":"diagnosis","show":true,"heading_zh":"病理诊断","heading_en":"Pathological diagnosis"},{"key":"images","show":true,"heading_zh":"图像","heading_en":"Images"},{"key":"remark","show":true,"heading_zh":"备注","heading_en":"Remarks"},{"key":"critical","show":true,"heading_zh":"危急值","heading_en":"Critical values"},{"key":"signatures","show":true},{"key":"dates","show":true},{"key":"gross","show":false,"heading_zh":"大体所见","heading_en":"Gross description"},{"key":"immunohistochemistry","show":false,"heading_zh":"免疫组化","heading_en":"Immunohistochemistry"}]}',
    CURRENT_TIMESTAMP, CURRENT_TIMESTAMP);
