package auth

import (
	"errors"
	"time"
)

// ErrorCode names one way an auth call can fail. The HTTP layer maps each
// to its status, the Supabase Auth error code and the words a person sees
// (internal/server/errors_auth.go); the service never chooses a status.
type ErrorCode string

// The failures of the auth service.
const (
	// Requests.
	CodeBadJSON       ErrorCode = "bad_json"       // the body is not the JSON expected (Detail says how)
	CodeContentType   ErrorCode = "content_type"   // the body is not JSON (Detail says how)
	CodeBodyTooLarge  ErrorCode = "body_too_large" // the body is too large (Detail says how)
	CodeUnexpected    ErrorCode = "unexpected"     // a fault of ours
	CodeServiceBusy   ErrorCode = "service_busy"   // a passing overload: try again (RetryAfter)
	CodeRequestLimit  ErrorCode = "request_limit"  // too many requests from one address (RetryAfter)
	CodeGrantType     ErrorCode = "grant_type"     // grant_type is not password, refresh_token or pkce
	CodeLogoutScope   ErrorCode = "logout_scope"   // scope is not global, local or others
	CodeMetadataLarge ErrorCode = "metadata_large" // user metadata over MaxUserMetadataBytes
	CodeBadText       ErrorCode = "bad_text"       // a text is not printable, e.g. holds NUL (Detail names the field)

	// Credentials and accounts.
	CodeCredentialsRequired  ErrorCode = "credentials_required"   // e-mail or password missing
	CodeInvalidCredentials   ErrorCode = "invalid_credentials"    // wrong e-mail or password
	CodeWrongCurrentPassword ErrorCode = "wrong_current_password" // the current password given is wrong
	CodeUserExists           ErrorCode = "user_exists"            // the address has an account
	CodeEmailInvalid         ErrorCode = "email_invalid"          // not an e-mail address
	CodeEmailNotConfirmed    ErrorCode = "email_not_confirmed"    // sign-in before confirming
	CodeEmailChange          ErrorCode = "email_change"           // changing the address is not offered
	CodeSignupDisabled       ErrorCode = "signup_disabled"        // sign-up is switched off
	CodeAnonymousDisabled    ErrorCode = "anonymous_disabled"     // anonymous sign-in is not offered
	CodePhoneDisabled        ErrorCode = "phone_disabled"         // phone sign-in is not offered
	CodePhoneChange          ErrorCode = "phone_change"           // a phone number cannot be set
	CodePasswordTooLong      ErrorCode = "password_too_long"      // over password.MaxLength
	CodeWeakPassword         ErrorCode = "weak_password"          // Reasons and Detail say why
	CodeSamePassword         ErrorCode = "same_password"          // the new password is the old one
	CodePasswordWait         ErrorCode = "password_wait"          // wrong passwords in a row for the e-mail (RetryAfter)

	// Sessions and tokens.
	CodeNoAuthorization      ErrorCode = "no_authorization"       // no bearer token
	CodeBadJWT               ErrorCode = "bad_jwt"                // the token is not a valid user token (Detail)
	CodeSessionNotFound      ErrorCode = "session_not_found"      // the token's session has ended
	CodeUserNotFound         ErrorCode = "user_not_found"         // the token's user is gone
	CodeRefreshTokenRequired ErrorCode = "refresh_token_required" // no refresh_token
	CodeRefreshTokenNotFound ErrorCode = "refresh_token_not_found"
	CodeRefreshTokenUsed     ErrorCode = "refresh_token_used" // reused after the grace interval: session ended

	// E-mailed links, codes and PKCE.
	CodeLinkInvalid         ErrorCode = "link_invalid"          // unknown, used or expired link
	CodeTokenInvalid        ErrorCode = "token_invalid"         // a verification type not offered
	CodeVerifyTypeMissing   ErrorCode = "verify_type_missing"   // verify without a type
	CodeTokenHashMissing    ErrorCode = "token_hash_missing"    // verify without a token_hash
	CodeRecoverEmailMissing ErrorCode = "recover_email_missing" // recover without an e-mail
	CodeResendTypeMissing   ErrorCode = "resend_type_missing"
	CodeResendType          ErrorCode = "resend_type"         // a resend type other than signup
	CodeResendEmailChange   ErrorCode = "resend_email_change" // resend of an e-mail change
	CodeResendEmailMissing  ErrorCode = "resend_email_missing"
	CodeEmailSendLimit      ErrorCode = "email_send_limit" // the address had a link too recently (RetryAfter)
	CodePKCEIncomplete      ErrorCode = "pkce_incomplete"  // one of code_challenge and its method
	CodePKCEMethod          ErrorCode = "pkce_method"      // method not s256 or plain
	CodePKCEChallenge       ErrorCode = "pkce_challenge"   // challenge of the wrong shape
	CodeAuthCodeMissing     ErrorCode = "auth_code_missing"
	CodeFlowStateNotFound   ErrorCode = "flow_state_not_found"
	CodeFlowStateExpired    ErrorCode = "flow_state_expired"
	CodeBadCodeVerifier     ErrorCode = "bad_code_verifier"

	// Features not offered.
	CodeOTPDisabled           ErrorCode = "otp_disabled"            // sign-in codes and magic links
	CodeReauthDisabled        ErrorCode = "reauth_disabled"         // reauthentication codes
	CodeProviderDisabled      ErrorCode = "provider_disabled"       // OAuth and OpenID providers
	CodeWeb3Disabled          ErrorCode = "web3_disabled"           // Web3 wallets
	CodeSSODisabled           ErrorCode = "sso_disabled"            // SAML single sign-on
	CodeManualLinkingDisabled ErrorCode = "manual_linking_disabled" // linking identities
	CodePasskeyDisabled       ErrorCode = "passkey_disabled"
	CodeNotAdmin              ErrorCode = "not_admin" // the service-role API

	// Two-step sign-in.
	CodeFactorType         ErrorCode = "factor_type"          // factor_type other than totp
	CodePhoneFactor        ErrorCode = "phone_factor"         // phone factors are not offered
	CodeWebAuthnFactor     ErrorCode = "webauthn_factor"      // WebAuthn factors are not offered
	CodeChallengeIDMissing ErrorCode = "challenge_id_missing" // verify without challenge_id
	CodeCodeMissing        ErrorCode = "code_missing"         // verify without a code
	CodeCodeTries          ErrorCode = "code_tries"           // too many codes tried by one person
	CodeFactorLocked       ErrorCode = "factor_locked"        // wrong codes in a row (RetryAfter)
	CodeFactorNotFound     ErrorCode = "factor_not_found"
	CodeChallengeGone      ErrorCode = "challenge_gone"
	CodeChallengeExpired   ErrorCode = "challenge_expired"
	CodeBadCode            ErrorCode = "bad_code"
	CodeCodeReused         ErrorCode = "code_reused"
	CodeTooManyFactors     ErrorCode = "too_many_factors"
	CodeFactorNameConflict ErrorCode = "factor_name_conflict"
	CodeFactorNameTooLong  ErrorCode = "factor_name_too_long"
	CodeInsufficientAAL    ErrorCode = "insufficient_aal"
	CodeNoVerifiedFactor   ErrorCode = "no_verified_factor"
	// An account with a verified factor, a session at aal1.
	CodeAAL2ToUpdateUser ErrorCode = "aal2_to_update_user" // a new password or e-mail address
	CodeAAL2ToEnroll     ErrorCode = "aal2_to_enroll"      // enrolling or verifying another factor
	CodeAAL2ToUnenroll   ErrorCode = "aal2_to_unenroll"    // removing a verified factor
)

// Error is a failure of an auth call a client can act on.
type Error struct {
	Code ErrorCode
	// RetryAfter, when set, is how long until the call may be tried again.
	RetryAfter time.Duration
	// Reasons are weak_password's reasons (password.Reason*).
	Reasons []string
	// Detail is text the renderer shows instead of its own for Code, for
	// the few failures whose words come from elsewhere (a decoder's, a
	// token parser's, the password policy's).
	Detail string
	// Err is the cause, for the log.
	Err error
}

func (e *Error) Error() string {
	s := "auth: " + string(e.Code)
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// Fail returns an *Error of code.
func Fail(code ErrorCode) *Error { return &Error{Code: code} }

// CodeOf returns err's ErrorCode, CodeUnexpected when err is no *Error.
func CodeOf(err error) ErrorCode {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeUnexpected
}
