module modelplane.dev/hack/oci-signer-check

go 1.26.0

// The official OCI SDK whose request signer modelplane's OCI signer is compared with.
require github.com/oracle/oci-go-sdk/v65 v65.130.0

require (
	github.com/gofrs/flock v0.10.0 // indirect
	github.com/sony/gobreaker/v2 v2.4.0 // indirect
	github.com/youmark/pkcs8 v0.0.0-20240726163527-a2c0da244d78 // indirect
	golang.org/x/crypto v0.56.0 // indirect
	golang.org/x/sys v0.47.0 // indirect
)
