-- Search of the case lists (issue 17): the trigram indexes of migrations
-- 0030 and 0058 take each write into their entries at once instead of
-- gathering it in a pending list, which every search reads in full (up to
-- 4 MB of unsorted entries, some 500 pages per searched column at 1M
-- cases). The list gathered so far is moved into the index first (about
-- 2 s at 1M cases; reads and writes go on); changing the option locks the
-- index, so it comes last, held only for the commit.
SELECT gin_clean_pending_list('consultations_search'::regclass), gin_clean_pending_list('consultations_id_number'::regclass);
ALTER INDEX consultations_search SET (fastupdate = off);
ALTER INDEX consultations_id_number SET (fastupdate = off);
