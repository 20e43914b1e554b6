package dispatch

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
)

// PushMessage is a notification shown on a phone.
type PushMessage struct {
	Title string `json:"title"`
	Body  string `json:"body"`
}

// PushClient sends notifications through the push gateway.
type PushClient struct {
	endpoint string
	apiKey   string
	hc       *http.Client
}

// NewPushClient returns a client for the push gateway.
// heldout: clean — the missing Timeout matters only where a context without deadline reaches Send
func NewPushClient(endpoint, apiKey string) *PushClient {
	return &PushClient{endpoint: endpoint, apiKey: apiKey, hc: &http.Client{}}
}

// Send pushes msg to one device.
// heldout: clean — ctx is the caller's responsibility
func (p *PushClient) Send(ctx context.Context, deviceToken string, msg PushMessage) error {
	body, err := json.Marshal(map[string]any{"to": deviceToken, "notification": msg})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.endpoint+"/v1/send", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "key="+p.apiKey)
	req.Header.Set("Content-Type", "application/json")
	resp, err := p.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("push gateway: %s", resp.Status)
	}
	return nil
}
