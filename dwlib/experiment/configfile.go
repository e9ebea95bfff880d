package experiment

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"strings"

	"github.com/internal-dw/dwgo/dwlib/internal/strictjson"
)

// ReadConfig reads a RunConfig from a JSON file (as printed by "dw config", then edited) and
// validates it. The file is taken literally, so it is read strictly: a field of another name
// (names are case-sensitive), a field given twice, a file over strictjson.MaxFileBytes or any
// trailing text is refused; every field without omitempty in
// RunConfig must be present; and no field may hold a zero that the run would silently replace by a
// default (train.lr 0 would train at 1e-4, fit.epochs 0 for 100, an empty train.method as "full"):
// the error names the field and the default to write instead. Zeros that are values are accepted:
// train.weight_decay 0 is no weight decay, and the fields documented as "0 or empty: the testbed's
// or the project's choice" (the data sizes, the model's architecture variants) keep that meaning.
// Its profile field may be any name: it only names the run directory.
func ReadConfig(path string) (RunConfig, error) {
	b, err := strictjson.ReadFile(path)
	if err != nil {
		return RunConfig{}, fmt.Errorf("experiment: %w", err)
	}
	var c RunConfig
	if json.Valid(b) { // names the field at fault, with its path, before decoding does without
		err = strictjson.Duplicate(b)
		if err == nil {
			err = checkFields(b, reflect.TypeFor[RunConfig](), "")
		}
	}
	if err == nil {
		c, err = decodeConfig(b)
	}
	if err == nil {
		err = checkExplicit(c)
	}
	if err != nil {
		return RunConfig{}, fmt.Errorf("experiment: %s: %w", path, err)
	}
	if err := c.Validate(); err != nil {
		return RunConfig{}, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// readRunConfig reads the config.json a run wrote into its directory: the configuration the run's
// checkpoints were written with, taken as it is (no field is defaulted, so it keeps matching their
// identity), and validated.
func readRunConfig(path string) (RunConfig, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return RunConfig{}, err
	}
	c, err := decodeConfig(b)
	if err != nil {
		return RunConfig{}, fmt.Errorf("experiment: %s: %w", path, err)
	}
	if err := c.Validate(); err != nil {
		return RunConfig{}, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// decodeConfig decodes one JSON object into a RunConfig, refusing unknown fields and trailing text.
func decodeConfig(b []byte) (RunConfig, error) {
	var c RunConfig
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return RunConfig{}, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return RunConfig{}, errors.New("text after the configuration's closing brace")
	}
	return c, nil
}

// checkFields checks a JSON object against the struct type t: every key must be a field's exact
// name (encoding/json would also accept "Epochs" for "epochs"), every field without omitempty must
// be present and not null, and nested structs are checked the same way. Fields are named by
// their dotted path, e.g. "train.weight_decay".
func checkFields(raw []byte, t reflect.Type, prefix string) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return fmt.Errorf("field %q: %w", prefix, err)
	}
	names := map[string]bool{}
	for i := range t.NumField() {
		if name, _ := jsonName(t.Field(i)); name != "" {
			names[name] = true
		}
	}
	for k := range m {
		if !names[k] {
			return fmt.Errorf("unknown field %q (field names are case-sensitive)", dotted(prefix, k))
		}
	}
	for i := range t.NumField() {
		sf := t.Field(i)
		name, omitempty := jsonName(sf)
		if name == "" {
			continue
		}
		path := dotted(prefix, name)
		v, ok := m[name]
		switch {
		case !ok && omitempty:
			continue
		case !ok:
			return fmt.Errorf("field %q is absent; every field must be given (dw config prints a complete file)", path)
		case string(v) == "null":
			return fmt.Errorf("field %q is null", path)
		}
		if sf.Type.Kind() == reflect.Struct {
			if err := checkFields(v, sf.Type, path); err != nil {
				return err
			}
		}
	}
	return nil
}

// jsonName is a struct field's JSON name ("" if it has none) and whether it is omitempty.
func jsonName(sf reflect.StructField) (string, bool) {
	if !sf.IsExported() {
		return "", false
	}
	tag := sf.Tag.Get("json")
	if tag == "-" {
		return "", false
	}
	name, opts, _ := strings.Cut(tag, ",")
	if name == "" {
		name = sf.Name
	}
	return name, slices.Contains(strings.Split(opts, ","), "omitempty")
}

func dotted(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

// checkExplicit refuses a field whose value the run would replace by a default.
func checkExplicit(c RunConfig) error {
	if err := firstDefaulted("train", c.Train, c.Train.Defaults()); err != nil {
		return err
	}
	if err := firstDefaulted("fit", c.Fit, c.Fit.Defaults()); err != nil {
		return err
	}
	if c.Model.DType == "" {
		return errors.New(`field "model.dtype" is empty; write "float32" or "float64"`)
	}
	if c.isUNet() {
		return checkExplicitUNet(c)
	}
	mc, err := c.modelConfig(1, 0)
	if err != nil {
		return err
	}
	d := mc.Defaults()
	// model.burn_in is not checked: 0 is what the paper profiles ask for, and the model replaces it
	// by 32 for them too (model.Config.Defaults); that is the profiles' business, not the file's.
	for _, f := range []struct {
		name   string
		v, def any
	}{{"kind", mc.Kind, d.Kind}, {"hidden", mc.Hidden, d.Hidden}, {"layers", mc.Layers, d.Layers},
		{"ssm_state", mc.SSMState, d.SSMState}, {"conv_width", mc.ConvWidth, d.ConvWidth},
		{"expand", mc.Expand, d.Expand}, {"window", mc.Window, d.Window}} {
		if f.v != f.def {
			return defaultedError("model."+f.name, f.v, f.def)
		}
	}
	return nil
}

// firstDefaulted compares a struct with its defaults-filled copy field by field and names the
// first field the defaults change.
func firstDefaulted(prefix string, given, defaulted any) error {
	a, b := reflect.ValueOf(given), reflect.ValueOf(defaulted)
	for i := range a.NumField() {
		if !a.Field(i).Equal(b.Field(i)) {
			name, _ := jsonName(a.Type().Field(i))
			return defaultedError(dotted(prefix, name), a.Field(i).Interface(), b.Field(i).Interface())
		}
	}
	return nil
}

func defaultedError(field string, v, def any) error {
	jv, _ := json.Marshal(v)
	jd, _ := json.Marshal(def)
	return fmt.Errorf("field %q is %s, which would run as the default %s: write the value you mean (%s is not a value of this field)", field, jv, jd, jv)
}

// checkExplicitUNet is checkExplicit's model part for the U-Net: the widths and frames it would
// otherwise default.
func checkExplicitUNet(c RunConfig) error {
	u, err := c.unetConfig()
	if err != nil {
		return err
	}
	m := c.Model
	for _, f := range []struct {
		name   string
		v, def int
	}{{"frames", m.Frames, u.Frames}, {"base", m.Base, u.Base}, {"mult", m.Mult, u.Mult}, {"depth", m.Depth, u.Depth}, {"window", m.Window, u.Window}} {
		if f.v != f.def {
			return defaultedError("model."+f.name, f.v, f.def)
		}
	}
	return nil
}
