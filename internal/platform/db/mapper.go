package db

import (
	"strings"

	"github.com/jmoiron/sqlx/reflectx"
)

// mapper maps struct fields by their db tag, else their json tag name.
func mapper() *reflectx.Mapper {
	return reflectx.NewMapperTagFunc("db", strings.ToLower, func(tag string) string {
		return strings.Split(tag, ",")[0]
	})
}
