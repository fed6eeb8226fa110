// Package i18n holds the server's messages in every supported language and
// picks one from the user-language header.
package i18n

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Lang is a supported language tag.
type Lang string

const (
	ZH Lang = "zh-CN"
	EN Lang = "en-US"
)

// Langs lists the supported languages, the default first.
var Langs = []Lang{ZH, EN}

//go:embed messages/*.json
var files embed.FS

var catalog = load()

func load() map[Lang]map[string]string {
	c := map[Lang]map[string]string{}
	for _, l := range Langs {
		b, err := files.ReadFile("messages/" + string(l) + ".json")
		if err != nil {
			panic(err) // embedded at build time: cannot fail at run time
		}
		m := map[string]string{}
		if err := json.Unmarshal(b, &m); err != nil {
			panic(fmt.Sprintf("i18n: messages/%s.json: %v", l, err))
		}
		c[l] = m
	}
	return c
}

// Parse returns the language named by a user-language header value; anything
// unknown falls back to Chinese, the product's default.
func Parse(header string) Lang {
	h := strings.ToLower(strings.TrimSpace(header))
	if strings.HasPrefix(h, "en") {
		return EN
	}
	return ZH
}

// T returns the message for key in lang with {name} placeholders filled.
// A missing key returns the key itself, which a test prevents.
func T(lang Lang, key string, args map[string]any) string {
	msg, ok := catalog[lang][key]
	if !ok {
		msg, ok = catalog[ZH][key]
		if !ok {
			return key
		}
	}
	if len(args) == 0 {
		return msg
	}
	var b strings.Builder
	b.Grow(len(msg))
	for {
		i := strings.IndexByte(msg, '{')
		if i < 0 {
			break
		}
		j := strings.IndexByte(msg[i:], '}')
		if j < 0 {
			break
		}
		name := msg[i+1 : i+j]
		b.WriteString(msg[:i])
		if v, ok := args[name]; ok {
			fmt.Fprint(&b, v)
		} else {
			b.WriteString(msg[i : i+j+1])
		}
		msg = msg[i+j+1:]
	}
	b.WriteString(msg)
	return b.String()
}

// Has reports whether key exists in every language.
func Has(key string) bool {
	for _, l := range Langs {
		if _, ok := catalog[l][key]; !ok {
			return false
		}
	}
	return true
}

// Keys returns the sorted keys of a language, for tests.
func Keys(lang Lang) []string {
	keys := make([]string, 0, len(catalog[lang]))
	for k := range catalog[lang] {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

type langKey struct{}

// WithLang returns ctx carrying the language of the request's answers.
func WithLang(ctx context.Context, l Lang) context.Context {
	return context.WithValue(ctx, langKey{}, l)
}

// From returns the language of ctx, zh-CN when none was set.
func From(ctx context.Context) Lang {
	if l, ok := ctx.Value(langKey{}).(Lang); ok {
		return l
	}
	return ZH
}
