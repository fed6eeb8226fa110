package billing

import (
	"encoding/json"
	"testing"

	"telepath/internal/platform/apperr"
)

func TestParseYuan(t *testing.T) {
	for _, c := range []struct {
		text string
		fen  Fen
		err  string
	}{
		{"300", 30000, ""},
		{"300.00", 30000, ""},
		{"0.1", 10, ""},
		{"0.07", 7, ""},     // 0.07*100 is 7.000000000000001 in floating point
		{"1.15", 115, ""},   // 1.15*100 is 114.99999999999999
		{"19.99", 1999, ""}, // 19.99*100 is 1998.9999999999998
		{"0", 0, ""},
		{"-0", 0, ""},
		{"3.005e2", 30050, ""},
		{"1000000", MaxPriceFen, ""},
		{"1.2E-1", 12, ""},
		{"0.001", 0, "billing.price_decimals"},
		{"300.005", 0, "billing.price_decimals"},
		{"1e-3", 0, "billing.price_decimals"},
		{"-1", 0, "billing.price_negative"},
		{"-0.5", 0, "billing.price_negative"},
		{"1000000.01", 0, "billing.price_too_large"},
		{"1e30", 0, "billing.price_too_large"},
		{"1e999", 0, "field.invalid"},
		{"", 0, "field.invalid"},
		{`"300"`, 0, "field.invalid"},
		{"1/3", 0, "field.invalid"},
		{"0x10", 0, "field.invalid"},
		{"01", 0, "field.invalid"},
		{"NaN", 0, "field.invalid"},
	} {
		t.Run(c.text, func(t *testing.T) {
			fen, err := ParseYuan("price", c.text)
			if c.err == "" {
				if err != nil || fen != c.fen {
					t.Fatalf("ParseYuan(%q) = %d, %v; want %d", c.text, fen, err, c.fen)
				}
				return
			}
			var ae *apperr.Error
			if err == nil || !apperr.Is(err, "error.validation") || !asField(err, &ae) || ae.Fields["price"][0].Key != c.err {
				t.Fatalf("ParseYuan(%q) = %d, %v; want %s", c.text, fen, err, c.err)
			}
		})
	}
}

func asField(err error, ae **apperr.Error) bool {
	e, ok := err.(*apperr.Error)
	*ae = e
	return ok && len(e.Fields["price"]) == 1
}

func TestFenJSON(t *testing.T) {
	for fen, want := range map[Fen]string{0: "0.00", 7: "0.07", 30000: "300.00", 12345: "123.45", -105: "-1.05"} {
		b, err := json.Marshal(struct {
			P Fen `json:"p"`
		}{fen})
		if err != nil || string(b) != `{"p":`+want+`}` {
			t.Errorf("%d → %s %v, want %s", fen, b, err, want)
		}
	}
}

func TestYuanTextKeepsNumberText(t *testing.T) {
	var in ItemInput
	if err := json.Unmarshal([]byte(`{"name":"x","price":19.99}`), &in); err != nil {
		t.Fatal(err)
	}
	if in.Price != "19.99" {
		t.Fatalf("price text %q", in.Price)
	}
	if fen, err := ParseYuan("price", string(in.Price)); err != nil || fen != 1999 {
		t.Fatalf("%d %v", fen, err)
	}
}
