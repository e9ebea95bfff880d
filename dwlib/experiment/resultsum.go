package experiment

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// resultSumKey is the JSON key of Result.Checksum.
const resultSumKey = "sha256"

// resultSum is the SHA-256 of a result document's content: its canonical JSON (object keys
// sorted, numbers exactly as written, no white space) without the checksum's own key. It is
// computed on the document's tree, not on its bytes, so that the indented result.json and the
// compact archived result.json.gz of one run have the same checksum, and reformatting a file
// changes nothing; changing any value does.
func resultSum(doc []byte) (string, error) {
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		return "", err
	}
	delete(m, resultSumKey)
	b, err := json.Marshal(m)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// withChecksum returns a copy of r carrying the checksum of its content.
func withChecksum(r *Result) (*Result, error) {
	c := *r
	c.Checksum = ""
	b, err := json.Marshal(&c)
	if err != nil {
		return nil, fmt.Errorf("experiment: encoding result: %w", err)
	}
	if c.Checksum, err = resultSum(b); err != nil {
		return nil, fmt.Errorf("experiment: encoding result: %w", err)
	}
	return &c, nil
}

// verifyChecksum checks the checksum a result document records (none: a result written before
// checksums existed, which is accepted and reported by an empty Result.Checksum).
func verifyChecksum(path string, doc []byte, recorded string) error {
	if recorded == "" {
		return nil
	}
	got, err := resultSum(doc)
	if err != nil {
		return fmt.Errorf("experiment: %s is not a valid result: %w", path, err)
	}
	if got != recorded {
		return fmt.Errorf("experiment: %s does not match its checksum (recorded %.12s…, content %.12s…): it was edited or damaged after it was written; restore it, or retrain the run", path, recorded, got)
	}
	return nil
}
