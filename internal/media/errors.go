package media

import "salaula/internal/apierr"

// The storage API's error names, the "error" of its wire shape
// {"statusCode": "404", "error": "not_found", "message": "..."}, as the
// hosted storage service names them; the server maps each error's
// apierr.Kind to its status.
const (
	CodeNotFound       = "not_found"
	CodeNoBucket       = "Bucket not found"
	CodeInvalidKey     = "InvalidKey"
	CodeInvalidRequest = "InvalidRequest"
	CodeDuplicate      = "Duplicate"
	CodeUnauthorized   = "Unauthorized"
	CodeTooLarge       = "Payload too large"
	CodeInvalidMime    = "invalid_mime_type"
	CodeTooMany        = "TooManyRequests"
	CodeUnavailable    = "ServiceUnavailable"
	CodeInternal       = "internal"
)

// Messages of the storage API's errors.
const (
	msgSignIn    = "You must be signed in to upload or remove files"
	msgOwnFolder = "You can only upload to or remove from your own folder: {your user id}/..."
	msgNoBucket  = "Bucket not found"
	msgNoObject  = "Object not found"
	msgDuplicate = "The resource already exists"
)

// Errors of the bucket's rules.
var (
	ErrNoBucket  = apierr.Coded(apierr.NotFound, CodeNoBucket, msgNoBucket)
	ErrNoObject  = apierr.Coded(apierr.NotFound, CodeNotFound, msgNoObject)
	ErrDuplicate = apierr.Coded(apierr.Conflict, CodeDuplicate, msgDuplicate)
	ErrOwnFolder = apierr.Coded(apierr.Forbidden, CodeUnauthorized, msgOwnFolder)
)

// SignInError is the 401 of a storage write without a user's session;
// why tells the person what was wrong with the token they sent.
func SignInError(why string) error {
	return apierr.Coded(apierr.Unauthenticated, CodeUnauthorized, msgSignIn+": "+why)
}

// failed is an Internal error of the bucket caused by err, telling the
// person msg.
func failed(err error, msg string) error {
	return &apierr.Error{Kind: apierr.Internal, Code: CodeInternal, Message: msg, Err: err}
}
