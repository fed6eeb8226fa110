package consultation

import "encoding/json"

// withoutTab removes the tab from list params so that counts cover every tab.
func withoutTab(params string) string {
	if params == "" {
		return ""
	}
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(params), &m) != nil {
		return params // the list engine reports the bad JSON
	}
	delete(m, "tab")
	b, _ := json.Marshal(m)
	return string(b)
}
