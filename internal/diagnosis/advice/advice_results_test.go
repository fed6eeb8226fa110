package advice

import (
	"testing"

	"telepath/internal/platform/i18n"
)

// The report prints the recorded marker results one exam a line,
// immunohistochemistry unnamed, others named first, the interpretation after.
func TestMarkerResultsText(t *testing.T) {
	l := []Advice{
		{Kind: AdviceSpecial, Item: "immunohistochemisty", MarkerResults: MarkerResults{{Marker: "CK", Result: "+"}, {Marker: "CD20", Result: "-"}}},
		{Kind: AdviceTechnical, Item: "re_cut"},
		{Kind: AdviceSpecial, Item: "special_stain", MarkerResults: MarkerResults{{Marker: "PAS", Result: "+"}}, Interpretation: "Fungi present."},
		{Kind: AdviceSpecial, Item: "molecular_pathology"},
	}
	if got, want := markerResultsText(i18n.EN, l), "CK (+), CD20 (-)\nSpecial stain: PAS (+)\nFungi present."; got != want {
		t.Errorf("en: %q, want %q", got, want)
	}
	if got, want := markerResultsText(i18n.ZH, l[:1]), "CK（+），CD20（-）"; got != want {
		t.Errorf("zh: %q, want %q", got, want)
	}
}
