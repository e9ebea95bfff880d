// Package strictjson holds what the project's strict JSON readers (-config, -data-spec) check
// beyond encoding/json: a key given twice in one object, which encoding/json resolves silently
// to the last (a file reading "epochs": 2, "epochs": 1 trains one epoch while its reader sees
// two), and the size of the file, read before anything is decoded.
package strictjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
)

// Duplicate returns an error naming the first key that appears twice in one object of the JSON
// text b, by its dotted path from the top ("train.epochs", "state[2]" for array elements). It
// returns nil for text without duplicates, and for text that is not valid JSON (the decoder that
// reads it afterwards reports that better).
func Duplicate(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	err := value(dec, "")
	if _, ok := err.(*dupError); ok {
		return err
	}
	return nil
}

type dupError struct{ path string }

func (e *dupError) Error() string {
	return fmt.Sprintf("field %q is given twice (JSON keeps only the last; write it once)", e.path)
}

// value reads one JSON value from dec; path names it.
func value(dec *json.Decoder, path string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		seen := map[string]bool{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return err
			}
			key, ok := k.(string)
			if !ok {
				return io.ErrUnexpectedEOF
			}
			p := key
			if path != "" {
				p = path + "." + key
			}
			if seen[key] {
				return &dupError{p}
			}
			seen[key] = true
			if err := value(dec, p); err != nil {
				return err
			}
		}
		_, err = dec.Token() // '}'
		return err
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			if err := value(dec, path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
		_, err = dec.Token() // ']'
		return err
	}
	return nil
}
