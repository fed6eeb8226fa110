-- The user list (issue 17, 100,000 users). It shows users not deleted, sorted
-- by a column with ties broken by id descending: per sort column an index
-- over those users in each order of id, so that a page, a deep page's keys
-- and the count are index-only walks. The search box (any part of the user
-- name, name, phone or work number) reads a trigram index, as the case
-- lists do; it takes writes at once (no pending list read by every search).
CREATE INDEX users_live_created ON users(created_at, id) WHERE deleted_at IS NULL;
CREATE INDEX users_live_created_up ON users(created_at, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX users_live_name ON users(name COLLATE "C", id) WHERE deleted_at IS NULL;
CREATE INDEX users_live_name_up ON users(name COLLATE "C", id DESC) WHERE deleted_at IS NULL;
CREATE INDEX users_live_username ON users(username COLLATE "C", id) WHERE deleted_at IS NULL;
CREATE INDEX users_live_username_up ON users(username COLLATE "C", id DESC) WHERE deleted_at IS NULL;
CREATE INDEX users_live_work_no ON users(work_no COLLATE "C", id) WHERE deleted_at IS NULL;
CREATE INDEX users_live_work_no_up ON users(work_no COLLATE "C", id DESC) WHERE deleted_at IS NULL;
CREATE INDEX users_search ON users USING gin (username public.gin_trgm_ops, name public.gin_trgm_ops, phone public.gin_trgm_ops, work_no public.gin_trgm_ops) WITH (fastupdate = off);
