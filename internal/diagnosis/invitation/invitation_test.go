package invitation

import (
	"strings"
	"testing"
)

func TestUnansweredColumn(t *testing.T) {
	sql, args, err := Unanswered(7, "invited").ToSql()
	if err != nil || !strings.HasSuffix(sql, ") AS invited") || len(args) != 1 || args[0] != int64(7) {
		t.Fatalf("Unanswered = %q %v %v", sql, args, err)
	}
}
