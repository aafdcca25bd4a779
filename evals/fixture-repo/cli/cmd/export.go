package cmd

import (
	"context"
	"encoding/csv"
	"flag"
	"os"
	"strconv"
	"time"

	"github.com/orderly/cli/internal/client"
	"github.com/orderly/cli/internal/config"
)

// RunExport writes the caller's orders created within --since to a CSV file.
func RunExport(args []string) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	since := fs.String("since", "30d", "how far back to export, e.g. 30d or 12h")
	out := fs.String("out", "orders.csv", "output CSV path")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg, err := config.Load()
	if err != nil {
		return err
	}
	window, err := config.ParseSince(*since)
	if err != nil {
		return err
	}
	file, err := os.Create(*out)
	if err != nil {
		return err
	}
	defer file.Close()
	return writeOrdersCSV(context.Background(), client.New(cfg.APIBaseURL, cfg.APIKey, cfg.Timeout), file, time.Now().Add(-window))
}

// writeOrdersCSV streams orders newer than cutoff as CSV rows with a header line.
func writeOrdersCSV(ctx context.Context, c *client.Client, file *os.File, cutoff time.Time) error {
	w := csv.NewWriter(file)
	if err := w.Write([]string{"id", "status", "currency", "total", "created_at"}); err != nil {
		return err
	}
	err := c.ListAllOrders(ctx, func(o client.Order) error {
		if o.CreatedAt.Before(cutoff) {
			return nil
		}
		total := strconv.FormatFloat(float64(o.TotalCents)/100, 'f', 2, 64)
		return w.Write([]string{strconv.FormatInt(o.ID, 10), o.Status, o.Currency, total, o.CreatedAt.Format(time.RFC3339)})
	})
	if err != nil {
		return err
	}
	w.Flush()
	return w.Error()
}
