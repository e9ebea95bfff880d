package runcache_test

import (
	"fmt"
	"os"

	"github.com/internal-dw/dwgo/kernelext/runcache"
)

func ExampleGet() {
	dir, _ := os.MkdirTemp("", "runcache-example")
	defer os.RemoveAll(dir)
	cache := runcache.New(dir, "v1")
	cache.Log = nil

	type Config struct {
		Epochs int
		LR     float64
	}
	train := func() (float64, error) { fmt.Println("training..."); return 0.25, nil }

	for range 2 {
		loss, status, err := runcache.Get(cache, "train", Config{Epochs: 10, LR: 1e-3}, 7, train)
		fmt.Println(loss, status, err)
	}
	// Output:
	// training...
	// 0.25 miss <nil>
	// 0.25 hit <nil>
}
