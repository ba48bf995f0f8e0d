// Command oci-signer-check signs HTTP requests with the OCI Go SDK's request signer and prints the headers the SDK
// would send, so modelplane's own signer can be compared with it byte for byte.
//
// It reads one JSON document from stdin:
//
//	{"key": "<PEM>", "passphrase": "", "tenancy": "...", "user": "...", "fingerprint": "...",
//	 "securityToken": "", "requests": [{"method": "GET", "url": "http://host/path?q", "date": "<RFC 1123>",
//	 "headers": {"content-type": "..."}, "body": "<base64>"}]}
//
// With securityToken set the key id is "ST$<token>" (session token auth), else tenancy/user/fingerprint. It writes a
// JSON array with, per request, the request's headers after signing (names in lower case).
package main

import (
	"bytes"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/oracle/oci-go-sdk/v65/common"
)

type request struct {
	Method  string            `json:"method"`
	URL     string            `json:"url"`
	Date    string            `json:"date"`
	Headers map[string]string `json:"headers"`
	Body    string            `json:"body"`
}

type input struct {
	Key           string    `json:"key"`
	Passphrase    string    `json:"passphrase"`
	Tenancy       string    `json:"tenancy"`
	User          string    `json:"user"`
	Fingerprint   string    `json:"fingerprint"`
	SecurityToken string    `json:"securityToken"`
	Requests      []request `json:"requests"`
}

// tokenKey is a key provider for session token auth: the SDK's own file-based provider reads the token from a file.
type tokenKey struct {
	token string
	key   *rsa.PrivateKey
}

func (t tokenKey) PrivateRSAKey() (*rsa.PrivateKey, error) { return t.key, nil }
func (t tokenKey) KeyID() (string, error)                  { return "ST$" + t.token, nil }

func main() {
	if err := run(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "oci-signer-check:", err)
		os.Exit(1)
	}
}

func run(in io.Reader, out io.Writer) error {
	var doc input
	if err := json.NewDecoder(in).Decode(&doc); err != nil {
		return fmt.Errorf("reading the input: %w", err)
	}
	var passphrase *string
	if doc.Passphrase != "" {
		passphrase = &doc.Passphrase
	}
	var provider common.KeyProvider
	if doc.SecurityToken != "" {
		key, err := common.PrivateKeyFromBytes([]byte(doc.Key), passphrase)
		if err != nil {
			return fmt.Errorf("reading the key: %w", err)
		}
		provider = tokenKey{token: doc.SecurityToken, key: key}
	} else {
		provider = common.NewRawConfigurationProvider(doc.Tenancy, doc.User, "us-ashburn-1", doc.Fingerprint,
			doc.Key, passphrase)
	}
	signer := common.DefaultRequestSigner(provider)
	results := make([]map[string]string, 0, len(doc.Requests))
	for _, r := range doc.Requests {
		body, err := base64.StdEncoding.DecodeString(r.Body)
		if err != nil {
			return fmt.Errorf("body of %s %s: %w", r.Method, r.URL, err)
		}
		var reader io.Reader
		if len(body) > 0 {
			reader = bytes.NewReader(body)
		}
		req, err := http.NewRequest(r.Method, r.URL, reader)
		if err != nil {
			return fmt.Errorf("%s %s: %w", r.Method, r.URL, err)
		}
		req.Header.Set("Date", r.Date)
		for k, v := range r.Headers {
			req.Header.Set(k, v)
		}
		if err := signer.Sign(req); err != nil {
			return fmt.Errorf("signing %s %s: %w", r.Method, r.URL, err)
		}
		headers := map[string]string{}
		for k, v := range req.Header {
			headers[strings.ToLower(k)] = strings.Join(v, ", ")
		}
		results = append(results, headers)
	}
	encoder := json.NewEncoder(out)
	encoder.SetEscapeHTML(false)
	return encoder.Encode(results)
}
