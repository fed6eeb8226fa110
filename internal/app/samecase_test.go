package app_test

import "testing"

func TestSameCase(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		earlier := e.publishedCase(f, "BL2026-00951", false)
		site := e.login("site")
		// The same name with another ID number is another person.
		var other caseOut
		body := registration(f, "BL2026-00952", e.slide(f.hospital, "site"))
		body["id_number"] = "110105194912310038"
		e.decode(e.expect(e.do("POST", "/api/consultation", site, body), 200), &other)
		current := e.submittedCase(f, "BL2026-00953", f.expert)

		var l struct {
			Data []struct {
				ID         int64  `json:"id"`
				Opinion    string `json:"opinion"`
				ExpertName string `json:"expert_name"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("GET", "/api/diagnosis/"+current+"/same_case", e.login("expert"), nil), 200), &l)
		if len(l.Data) != 1 || itoa(l.Data[0].ID) != earlier || l.Data[0].Opinion != "（胃窦）慢性浅表性胃炎。" || l.Data[0].ExpertName == "" {
			t.Fatalf("same cases: %+v (earlier %s, other %d)", l.Data, earlier, other.Data.ID)
		}
		e.expect(e.do("GET", "/api/diagnosis/"+current+"/same_case", e.login("site2"), nil), 403)
		e.expect(e.do("GET", "/api/diagnosis/999999/same_case", e.login("expert"), nil), 404)
	})
}
