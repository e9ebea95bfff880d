package kernelext

import (
	"fmt"
	"math"
	"reflect"
	"strings"
)

// FloatFormat is the default format of float fields in TableOf.
var FloatFormat = "%.4g"

// TableOf builds a Table from a slice or array of structs (or pointers to
// structs), one row per element and one column per exported field,
// including fields promoted from embedded structs.
//
// The `table` struct tag controls columns:
//
//	Loss   float64 `table:"Test loss,%.3f"` // column name and fmt format
//	Steps  int     `table:",%d steps"`      // keep the field name, set format
//	secret string                           // unexported: skipped
//	Raw    []byte  `table:"-"`              // skipped
//	Gains  string  `table:"(alpha, m)"`       // a name with commas
//	W      Pair    `table:"w (a, b),%.3f"`    // the format follows the last comma
//
// Floats default to FloatFormat; fmt.Stringer and error values use their
// String/Error; nil pointers give empty cells.
func TableOf(title string, rows any) (*Table, error) {
	v := reflect.ValueOf(rows)
	if v.Kind() != reflect.Slice && v.Kind() != reflect.Array {
		return nil, fmt.Errorf("kernelext: TableOf wants a slice of structs, got %T", rows)
	}
	elem := v.Type().Elem()
	if elem.Kind() == reflect.Pointer {
		elem = elem.Elem()
	}
	if elem.Kind() != reflect.Struct {
		return nil, fmt.Errorf("kernelext: TableOf wants a slice of structs, got %T", rows)
	}
	cols := columnsOf(elem)
	t := &Table{Title: title}
	for _, c := range cols {
		t.Header = append(t.Header, c.name)
	}
	for i := range v.Len() {
		e := v.Index(i)
		if e.Kind() == reflect.Pointer {
			if e.IsNil() {
				t.Rows = append(t.Rows, make([]string, len(cols)))
				continue
			}
			e = e.Elem()
		}
		row := make([]string, len(cols))
		for j, c := range cols {
			f, err := e.FieldByIndexErr(c.index)
			if err != nil { // through a nil embedded pointer
				continue
			}
			row[j] = formatValue(f, c.format)
		}
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}

// ShowStructs is TableOf followed by Show.
func ShowStructs(title string, rows any) error {
	t, err := TableOf(title, rows)
	if err != nil {
		return err
	}
	return t.Show()
}

type column struct {
	name, format string
	index        []int
}

// columnsOf lists the visible exported non-struct-embedding fields of a struct type.
func columnsOf(typ reflect.Type) []column {
	var cols []column
	for _, f := range reflect.VisibleFields(typ) {
		if !f.IsExported() {
			continue
		}
		if f.Anonymous {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				continue // its fields are promoted and listed on their own.
			}
		}
		tag := f.Tag.Get("table")
		if tag == "-" {
			continue
		}
		name, format := splitTag(tag)
		if name == "" {
			name = f.Name
		}
		cols = append(cols, column{name: name, format: format, index: f.Index})
	}
	return cols
}

// splitTag splits a table tag into the column name and the format: the format is what follows
// the last comma if that contains a '%' verb, so names may contain commas ("(alpha, m)").
func splitTag(tag string) (name, format string) {
	if i := strings.LastIndex(tag, ","); i >= 0 && strings.Contains(tag[i+1:], "%") {
		return tag[:i], tag[i+1:]
	}
	return tag, ""
}

var (
	stringerType = reflect.TypeFor[fmt.Stringer]()
	errorType    = reflect.TypeFor[error]()
)

// formatValue renders one field value.
func formatValue(v reflect.Value, format string) string {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return ""
		}
		if v.Type().Implements(errorType) || v.Type().Implements(stringerType) {
			break
		}
		v = v.Elem()
	}
	if !v.CanInterface() {
		return ""
	}
	x := v.Interface()
	if format != "" {
		return fmt.Sprintf(format, x)
	}
	switch val := x.(type) {
	case error:
		return val.Error()
	case fmt.Stringer:
		return val.String()
	}
	if k := v.Kind(); k == reflect.Float64 || k == reflect.Float32 {
		return formatFloat(v.Float()) // also named float types.
	}
	return fmt.Sprint(x)
}

func formatFloat(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return fmt.Sprint(f)
	}
	return fmt.Sprintf(FloatFormat, f)
}
