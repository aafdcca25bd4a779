package cmd

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/jackc/pgx/v5"
)

// RunMigrate applies the SQL files of --dir in name order, each once, recording applied
// files in schema_migrations. Each file runs in its own transaction.
func RunMigrate(args []string) error {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	databaseURL := fs.String("database-url", os.Getenv("DATABASE_URL"), "PostgreSQL URL")
	dir := fs.String("dir", "migrations", "folder of NNN_name.sql files")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, *databaseURL)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"); err != nil {
		return err
	}
	files, err := pendingMigrations(ctx, conn, *dir)
	if err != nil {
		return err
	}
	for _, name := range files {
		if err := applyMigration(ctx, conn, *dir, name); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		fmt.Println("applied", name)
	}
	return nil
}

// pendingMigrations lists the .sql files not yet recorded in schema_migrations, sorted.
func pendingMigrations(ctx context.Context, conn *pgx.Conn, dir string) ([]string, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.sql"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var pending []string
	for _, p := range paths {
		name := filepath.Base(p)
		var exists bool
		if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE name = $1)", name).Scan(&exists); err != nil {
			return nil, err
		}
		if !exists {
			pending = append(pending, name)
		}
	}
	return pending, nil
}

func applyMigration(ctx context.Context, conn *pgx.Conn, dir, name string) error {
	sql, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return err
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, string(sql)); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, "INSERT INTO schema_migrations (name) VALUES ($1)", name); err != nil {
		return err
	}
	return tx.Commit(ctx)
}
