// Package client is a small HTTP client for the Orderly API.
package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// Order mirrors the API's order object.
type Order struct {
	ID         int64     `json:"id"`
	CustomerID int64     `json:"customerId"`
	Status     string    `json:"status"`
	Currency   string    `json:"currency"`
	TotalCents int64     `json:"totalCents"`
	CreatedAt  time.Time `json:"createdAt"`
}

type orderPage struct {
	Orders     []Order `json:"orders"`
	NextCursor *string `json:"nextCursor"`
}

// Client calls the API with an API key.
type Client struct {
	BaseURL string
	APIKey  string
	HTTP    *http.Client
}

// New returns a client with a request timeout.
func New(baseURL, apiKey string, timeout time.Duration) *Client {
	return &Client{BaseURL: baseURL, APIKey: apiKey, HTTP: &http.Client{Timeout: timeout}}
}

// ListAllOrders follows nextCursor until the last page and calls fn for every order.
// When the API answers 429 it waits for Retry-After seconds and asks again.
func (c *Client) ListAllOrders(ctx context.Context, fn func(Order) error) error {
	cursor := ""
	for {
		q := url.Values{"limit": {"200"}}
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		var page orderPage
		if err := c.getJSON(ctx, "/orders?"+q.Encode(), &page); err != nil {
			return err
		}
		for _, o := range page.Orders {
			if err := fn(o); err != nil {
				return err
			}
		}
		if page.NextCursor == nil {
			return nil
		}
		cursor = *page.NextCursor
	}
}

func (c *Client) getJSON(ctx context.Context, path string, out any) error {
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.BaseURL+path, nil)
		if err != nil {
			return err
		}
		req.Header.Set("X-Api-Key", c.APIKey)
		res, err := c.HTTP.Do(req)
		if err != nil {
			return err
		}
		if res.StatusCode == http.StatusTooManyRequests {
			res.Body.Close()
			wait, _ := strconv.Atoi(res.Header.Get("Retry-After"))
			select {
			case <-time.After(time.Duration(max(wait, 1)) * time.Second):
				continue
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		defer res.Body.Close()
		if res.StatusCode != http.StatusOK {
			return fmt.Errorf("GET %s: HTTP %d", path, res.StatusCode)
		}
		return json.NewDecoder(res.Body).Decode(out)
	}
}
