package billing

import (
	"math/big"
	"regexp"
	"strconv"

	"github.com/danielgtaylor/huma/v2"

	"telepath/internal/platform/apperr"
)

// MaxPriceFen bounds a charge item's price: 1,000,000.00 yuan.
const MaxPriceFen = 100_000_000

// Fen is an amount of money in fen (1 yuan = 10 jiao = 100 fen), the unit
// it is stored and summed in. In JSON it is a number of yuan with exactly
// two decimals, e.g. 300.00.
type Fen int64

// Yuan formats f as yuan with two decimals ("-1.05", "300.00").
func (f Fen) Yuan() string {
	n, sign := int64(f), ""
	if n < 0 {
		n, sign = -n, "-"
	}
	frac := strconv.FormatInt(n%100, 10)
	if len(frac) < 2 {
		frac = "0" + frac
	}
	return sign + strconv.FormatInt(n/100, 10) + "." + frac
}

// MarshalJSON writes the yuan number text, so no float ever holds it.
func (f Fen) MarshalJSON() ([]byte, error) { return []byte(f.Yuan()), nil }

// Schema documents Fen as the number of yuan it is sent as.
func (Fen) Schema(huma.Registry) *huma.Schema {
	return &huma.Schema{Type: huma.TypeNumber, Description: "Yuan with two decimals, e.g. 300.00"}
}

// YuanText is a price as the client wrote it: the text of a JSON number of
// yuan, kept as text so that it converts to fen exactly (ParseYuan).
type YuanText string

// UnmarshalJSON keeps the raw number text; the request schema has already
// made sure it is a JSON number.
func (y *YuanText) UnmarshalJSON(b []byte) error {
	*y = YuanText(b)
	return nil
}

// Schema declares the price as a JSON number of yuan.
func (YuanText) Schema(huma.Registry) *huma.Schema {
	return &huma.Schema{Type: huma.TypeNumber, Description: "Yuan, at most two decimals, 0 to 1000000"}
}

// jsonNumber is the JSON number grammar with a bounded exponent, so that
// no text can make big.Rat build a huge number.
var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]{0,29})(\.[0-9]{1,30})?([eE][+-]?[0-9]{1,2})?$`)

// ParseYuan converts the text of a JSON number of yuan to fen, exactly:
// "300", "300.5", "300.50" and "3.005e2" are all accepted; "0.001" is not.
// It returns an *apperr.Error (Invalid) with a field error on field:
// field.invalid (not a number), billing.price_negative,
// billing.price_decimals (more than two decimals, i.e. below a fen) or
// billing.price_too_large.
func ParseYuan(field, text string) (Fen, error) {
	e := apperr.New(apperr.Invalid, "error.validation")
	r, ok := new(big.Rat), jsonNumber.MatchString(text)
	if ok {
		_, ok = r.SetString(text)
	}
	switch {
	case !ok:
		return 0, e.Field(field, "field.invalid")
	case r.Sign() < 0:
		return 0, e.Field(field, "billing.price_negative")
	case !r.Mul(r, big.NewRat(100, 1)).IsInt():
		return 0, e.Field(field, "billing.price_decimals")
	case r.Num().Cmp(big.NewInt(MaxPriceFen)) > 0:
		return 0, e.Field(field, "billing.price_too_large")
	}
	return Fen(r.Num().Int64()), nil
}
