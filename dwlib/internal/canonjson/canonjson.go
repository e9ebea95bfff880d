// Package canonjson gives a value's canonical JSON, the form in which run identities are compared:
// object keys sorted, and numbers kept exactly as encoding/json wrote them.
//
// Numbers are never decoded into float64 on the way (json.Decoder.UseNumber): a float64 holds
// integers exactly only up to 2^53, so seeds 2^64-1 and 2^64-2 would otherwise both become
// 18446744073709551616 and two different runs would compare equal. For every number that float64
// does hold exactly the output is byte for byte what a float64 round trip gives, so identities
// written before this package existed compare equal to the same identities now.
package canonjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
)

// Marshal returns the canonical JSON of v.
func Marshal(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return Canonical(b)
}

// Canonical re-encodes a JSON document canonically.
func Canonical(doc []byte) ([]byte, error) {
	g, err := decode(doc)
	if err != nil {
		return nil, err
	}
	return json.Marshal(g)
}

// decode parses a JSON document with its numbers kept as written.
func decode(doc []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var g any
	if err := dec.Decode(&g); err != nil {
		return nil, err
	}
	return g, nil
}

// Leaves flattens a JSON document into its leaves, keyed by dotted path ("train.lr", "x[2]"),
// each leaf as its JSON text. An undecodable document has no leaves.
func Leaves(doc []byte) map[string]string {
	out := map[string]string{}
	if g, err := decode(doc); err == nil {
		flatten("", g, out)
	}
	return out
}

func flatten(prefix string, v any, out map[string]string) {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			p := k
			if prefix != "" {
				p = prefix + "." + k
			}
			flatten(p, x, out)
		}
	case []any:
		for i, x := range t {
			flatten(fmt.Sprintf("%s[%d]", prefix, i), x, out)
		}
	default:
		b, _ := json.Marshal(t)
		out[prefix] = string(b)
	}
}

// Diff lists the leaves that differ between two JSON documents, sorted, as
// "path: <nameA> a, <nameB> b", with "(absent)" for a leaf one side lacks.
func Diff(a, b []byte, nameA, nameB string) []string {
	fa, fb := Leaves(a), Leaves(b)
	keys := map[string]bool{}
	for k := range fa {
		keys[k] = true
	}
	for k := range fb {
		keys[k] = true
	}
	var out []string
	for k := range keys {
		x, okx := fa[k]
		y, oky := fb[k]
		switch {
		case !okx:
			x = "(absent)"
		case !oky:
			y = "(absent)"
		}
		if x != y {
			out = append(out, fmt.Sprintf("%s: %s %s, %s %s", k, nameA, x, nameB, y))
		}
	}
	sort.Strings(out)
	return out
}
