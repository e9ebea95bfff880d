package data

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc64"
	"math"
	"os"
	"path/filepath"

	"github.com/internal-dw/dwgo/dwlib/internal/atomicfile"
)

// Cache files hold the raw (unstandardised) trajectories of one generator
// call. Layout, little-endian:
//
//	magic "DWGODATA" | version u32 | len(key) u32 | key | nTraj u32 | T u32 |
//	stateDim u32 | driveDim u32 | float64 payload (per trajectory: X rows,
//	then Drive rows) | CRC-64/ECMA of everything before it
//
// The key spells out the generator name, algorithm version, every parameter
// and the generation seed; the file name is a hash of it. On reading, a bad
// checksum, a truncated file or a key that differs from the request is
// treated as a miss and the file is regenerated: a cache file is never
// reused unless it provably holds the requested data.
const (
	cacheMagic   = "DWGODATA"
	cacheVersion = 1
)

var crcTable = crc64.MakeTable(crc64.ECMA)

// cacheResult says how loadOrGenerate obtained its data (used by tests).
type cacheResult int

const (
	cacheOff      cacheResult = iota // caching disabled
	cacheHit                         // valid file reused
	cacheMiss                        // no file: generated and written
	cacheRejected                    // corrupt or mismatched file: regenerated and overwritten
)

// cachePath is the file for key under dir.
func cachePath(dir, name, key string) string {
	h := sha256.Sum256([]byte(key))
	return filepath.Join(dir, name+"-"+hex.EncodeToString(h[:8])+".bin")
}

// loadOrGenerate returns the trajectories for key from dir, or generates and
// caches them. dir == "" disables caching.
func loadOrGenerate(dir, name, key string, gen func() ([]Series, error)) ([]Series, cacheResult, error) {
	if dir == "" {
		s, err := gen()
		return s, cacheOff, err
	}
	path := cachePath(dir, name, key)
	res := cacheMiss
	if raw, err := os.ReadFile(path); err == nil {
		if s, err := decodeCache(raw, key); err == nil {
			return s, cacheHit, nil
		}
		res = cacheRejected
	} else if !errors.Is(err, os.ErrNotExist) {
		res = cacheRejected
	}
	s, err := gen()
	if err != nil {
		return nil, res, err
	}
	if err := writeCache(path, encodeCache(s, key)); err != nil {
		return nil, res, needsSetting(fmt.Errorf("data: writing cache %s: %w", path, err), "NoCache", "CacheDir")
	}
	return s, res, nil
}

func encodeCache(ss []Series, key string) []byte {
	var T, sd, dd int
	if len(ss) > 0 {
		T, sd, dd = ss[0].Len(), width(ss[0].X), width(ss[0].Drive)
	}
	var b bytes.Buffer
	b.WriteString(cacheMagic)
	u32 := func(v int) { _ = binary.Write(&b, binary.LittleEndian, uint32(v)) }
	u32(cacheVersion)
	u32(len(key))
	b.WriteString(key)
	u32(len(ss))
	u32(T)
	u32(sd)
	u32(dd)
	var buf [8]byte
	put := func(rows [][]float64) {
		for _, r := range rows {
			for _, v := range r {
				binary.LittleEndian.PutUint64(buf[:], math.Float64bits(v))
				b.Write(buf[:])
			}
		}
	}
	for _, s := range ss {
		put(s.X)
		put(s.Drive)
	}
	binary.LittleEndian.PutUint64(buf[:], crc64.Checksum(b.Bytes(), crcTable))
	b.Write(buf[:])
	return b.Bytes()
}

func decodeCache(raw []byte, key string) ([]Series, error) {
	if len(raw) < len(cacheMagic)+8 {
		return nil, errors.New("truncated")
	}
	body, sum := raw[:len(raw)-8], binary.LittleEndian.Uint64(raw[len(raw)-8:])
	if crc64.Checksum(body, crcTable) != sum {
		return nil, errors.New("checksum mismatch")
	}
	r := bytes.NewReader(body)
	magic := make([]byte, len(cacheMagic))
	if _, err := r.Read(magic); err != nil || string(magic) != cacheMagic {
		return nil, errors.New("bad magic")
	}
	var hdr [2]uint32
	if err := binary.Read(r, binary.LittleEndian, &hdr); err != nil || hdr[0] != cacheVersion || int(hdr[1]) > r.Len() {
		return nil, errors.New("bad header")
	}
	k := make([]byte, hdr[1])
	_, _ = r.Read(k)
	if string(k) != key {
		return nil, fmt.Errorf("parameter mismatch: file has %q", k)
	}
	var dims [4]uint32
	if err := binary.Read(r, binary.LittleEndian, &dims); err != nil {
		return nil, errors.New("bad dimensions")
	}
	n, T, sd, dd := int(dims[0]), int(dims[1]), int(dims[2]), int(dims[3])
	if want := n * T * (sd + dd) * 8; r.Len() != want {
		return nil, fmt.Errorf("payload is %d bytes, want %d", r.Len(), want)
	}
	payload := body[len(body)-r.Len():]
	next := func() float64 {
		v := math.Float64frombits(binary.LittleEndian.Uint64(payload))
		payload = payload[8:]
		return v
	}
	get := func(dim int) [][]float64 {
		if dim == 0 {
			return nil
		}
		rows := makeRows(T, dim)
		for _, row := range rows {
			for j := range row {
				row[j] = next()
			}
		}
		return rows
	}
	out := make([]Series, n)
	for i := range out {
		out[i].X = get(sd)
		out[i].Drive = get(dd)
	}
	return out, nil
}

// writeCache writes atomically (see dwlib/internal/atomicfile: a temporary
// file of its own, flushed and renamed), so a crash or a concurrent reader
// never sees a half-written file under the final name.
func writeCache(path string, data []byte) error {
	return atomicfile.Write(path, data, 0o644)
}
