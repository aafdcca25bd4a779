// Command orderly is the operators' tool for the Orderly service.
//
//	orderly export --since 30d --out orders.csv
//	orderly migrate --database-url postgres://... --dir ./migrations
package main

import (
	"fmt"
	"os"

	"github.com/orderly/cli/cmd"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: orderly <export|migrate> [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "export":
		err = cmd.RunExport(os.Args[2:])
	case "migrate":
		err = cmd.RunMigrate(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "orderly:", err)
		os.Exit(1)
	}
}
