-- The planner's statistics of the search pieces (0058) keep the 1,000 most
-- common pieces rather than 100. At 1M cases the table holds 4.3M rows of
-- ~7,500 pieces, and the 100 most common are the numbers' digit pairs: a
-- surname's character such as 张 (10,078 cases) was estimated at 295. An
-- expert's completed cases of two hospitals, searched for 张, then probed
-- case_experts once per matching case (227 ms) instead of reading the
-- expert's ~1,000 cases of the two hospitals and keeping those with the
-- piece (48 ms).
ALTER TABLE consultation_grams ALTER COLUMN gram SET STATISTICS 1000;
ANALYZE consultation_grams;
