package app_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// owners names the domain package that owns each table: it alone writes it
// (README, "A domain writes only its own tables"). A table left out here is
// not checked: a new table gets its line.
var owners = map[string][]string{
	"consultation": {"consultations", "specimens", "paraffin_blocks", "attachments", "charges", "charge_lines", "case_logs",
		"consult_messages", "handovers", "case_collections", "consultation_tallies"},
	"org":                  {"centers", "hospitals", "hospital_centers"},
	"user":                 {"users", "user_roles", "user_centers", "user_hospitals"},
	"auth":                 {"sessions", "login_failures", "captcha_uses", "captchas"},
	"library":              {"libraries"},
	"billing":              {"charge_items", "timeout_configs"},
	"diagnosis":            {"diagnoses"},
	"diagnosis/advice":     {"advices"},
	"diagnosis/invitation": {"invitations"},
	"diagnosis/judge":      {"slide_judgements"},
	"diagnosis/shots":      {"case_shots"},
	"diagnosis/templates":  {"diagnosis_templates", "diagnosis_terms"},
	"diagnosis/structured": {"struct_templates", "struct_rules", "symbols"},
	"upload":               {"slides", "slide_views"},
	"slideserver":          {"slide_annotations", "slide_grants"},
	"files":                {"files"},
	"settings":             {"settings"},
	"audit":                {"audit_logs", "audit_chain"},
	"notify":               {"notifications", "notices", "timeout_notices", "stream_tickets"},
	"frozen":               {"frozen_appointments", "attendance_groups", "attendance_members", "attendance_shifts", "duty_sessions"},
	"statistics":           {"qc_targets", "stat_daily", "stat_zone"},
	"share":                {"shares", "share_visits", "share_failures"},
	"meeting":              {"meetings", "meeting_members"},
	"borrow":               {"borrows", "archives", "borrow_due_changes"},
	"reagent":              {"reagents"},
	"report":               {"report_templates"},
	"gallery":              {"gallery_images"},
}

// readModels are the tables other domains may read in their own SQL
// (joins of lists, counts and exports, scope conditions, a name): the
// case, the people, the organisation, the libraries and stored files.
// Any other table of another domain is read through its owner's functions
// (a method, or a SQL fragment such as borrow.Filed or diagnosis.Latest).
var readModels = []string{"consultations", "attachments", "users", "user_roles", "user_centers", "user_hospitals",
	"centers", "hospitals", "hospital_centers", "libraries", "files"}

// exceptions are the declared departures from the rule.
var exceptions = []struct{ pkg, table, why string }{
	{"auth", "users W", "the sign-in columns (password_hash, must_change_password, password_changed_at, last_login_at, " +
		"locked_until) are auth's: it sits below user; user changes them through auth.SetPassword and auth.ClearThrottle"},
}

// reporters read, besides the read models, these tables of other domains,
// read-only: the statistics figures count the records where they are kept.
var reporters = map[string][]string{
	"statistics": {"case_logs", "charges", "diagnoses", "frozen_appointments", "slide_judgements", "advices", "invitations"},
}

// TestDomainsOwnTables reads the SQL of every domain package and checks
// that a domain writes only its own tables and reads another's only where
// that table is a read model (or an exception above says why).
func TestDomainsOwnTables(t *testing.T) {
	owner := map[string]string{}
	var names []string
	for pkg, ts := range owners {
		for _, tb := range ts {
			owner[tb] = pkg
			names = append(names, tb)
		}
	}
	slices.SortFunc(names, func(a, b string) int { return len(b) - len(a) })
	alt := strings.Join(names, "|")
	// a builder call naming a table, SQL text naming one, or a constant
	// that is a FROM clause ("case_logs l JOIN consultations c ON …").
	call := regexp.MustCompile(`\b(From|Join|LeftJoin|InnerJoin|Update|Insert|Delete|Into)\(\s*["` + "`" + `](` + alt + `)\b`)
	text := regexp.MustCompile(`\b(FROM|JOIN|UPDATE|INTO)\s+(` + alt + `)\b`)
	clause := regexp.MustCompile(`^["` + "`" + `]\s*(` + alt + `)\s+[a-z]{1,3}\s+(LEFT\s+)?JOIN\b`)
	literal := regexp.MustCompile("\"(?:[^\"\\\\\\n]|\\\\.)*\"|`[^`]*`")
	allowed := func(pkg, table string, write bool) bool {
		if owner[table] == pkg {
			return true
		}
		kind := table + " R"
		if write {
			kind = table + " W"
		}
		for _, e := range exceptions {
			if e.pkg == pkg && e.table == kind {
				return true
			}
		}
		return !write && (slices.Contains(readModels, table) || slices.Contains(reporters[pkg], table))
	}
	found := 0
	root := ".."
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		pkg := filepath.ToSlash(filepath.Dir(strings.TrimPrefix(path, root+string(filepath.Separator))))
		if _, domain := owners[pkg]; !domain {
			return nil // wiring, platform, demo data, benchmarks: not a domain
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		check := func(at int, table string, write bool) {
			found++
			if !allowed(pkg, table, write) {
				what := "reads"
				if write {
					what = "writes"
				}
				t.Errorf("%s:%d: %s %s the %s table %s", path, 1+strings.Count(string(src[:at]), "\n"), pkg, what, owner[table], table)
			}
		}
		for _, m := range call.FindAllSubmatchIndex(src, -1) {
			verb := string(src[m[2]:m[3]])
			check(m[0], string(src[m[4]:m[5]]), verb == "Update" || verb == "Insert" || verb == "Delete" || verb == "Into")
		}
		for _, l := range literal.FindAllIndex(src, -1) {
			s := src[l[0]:l[1]]
			for _, m := range text.FindAllSubmatchIndex(s, -1) {
				verb := string(s[m[2]:m[3]])
				check(l[0]+m[0], string(s[m[4]:m[5]]), verb == "UPDATE" || verb == "INTO")
			}
			if m := clause.FindSubmatchIndex(s); m != nil {
				check(l[0], string(s[m[2]:m[3]]), false)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found < 200 {
		t.Fatalf("only %d table references found: the scan no longer sees the SQL", found)
	}
}
