package server

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"salaula/internal/auth"
	"salaula/internal/ratelimit"
)

// authAnswer is how one auth failure is answered: its status, the Supabase
// Auth error code and the words a person sees (worded as the hosted
// service words them where it has the same failure, unless those words
// leave a person stuck: email_not_confirmed says what to do; the sign-in
// screen shows them as they are, and clients tell cases apart by code).
type authAnswer struct {
	status int
	code   string
	msg    string
}

// authAnswers is the copy of every auth failure, by auth.ErrorCode.
var authAnswers = map[auth.ErrorCode]authAnswer{
	auth.CodeBadJSON:       {400, "bad_json", "Could not read the request body"},
	auth.CodeContentType:   {415, "validation_failed", "Content-Type must be application/json"},
	auth.CodeBodyTooLarge:  {413, "validation_failed", "Request body is too large"},
	auth.CodeUnexpected:    {500, "unexpected_failure", "Unexpected failure, please try again"},
	auth.CodeServiceBusy:   {503, "unexpected_failure", msgServiceBusy},
	auth.CodeRequestLimit:  {429, "over_request_rate_limit", "Request rate limit reached"},
	auth.CodeGrantType:     {400, "validation_failed", "Unsupported grant_type: use password, refresh_token or pkce"},
	auth.CodeLogoutScope:   {400, "validation_failed", "Unsupported logout scope: use global, local or others"},
	auth.CodeMetadataLarge: {422, "validation_failed", "User metadata is too large: at most 4 KiB (4096 bytes) of JSON"},
	auth.CodeBadText:       {400, "validation_failed", "The request can hold only printable text"},

	auth.CodeCredentialsRequired:  {400, "validation_failed", "You must provide either an email or phone number and a password"},
	auth.CodeInvalidCredentials:   {400, "invalid_credentials", "Invalid login credentials"},
	auth.CodeWrongCurrentPassword: {400, "invalid_credentials", "Your current password is not correct"},
	auth.CodeUserExists:           {422, "user_already_exists", "User already registered"},
	auth.CodeEmailInvalid:         {400, "email_address_invalid", msgEmailInvalid},
	auth.CodeEmailNotConfirmed:    {400, "email_not_confirmed", "Your e-mail address is not confirmed yet. Open the link in the e-mail we sent you when you signed up, or ask for the confirmation e-mail again."},
	auth.CodeEmailChange:          {422, "validation_failed", "Changing the e-mail address is not supported yet"},
	auth.CodeSignupDisabled:       {422, "signup_disabled", "Signups not allowed for this instance"},
	auth.CodeAnonymousDisabled:    {422, "anonymous_provider_disabled", "Anonymous sign-ins are disabled"},
	auth.CodePhoneDisabled:        {400, "phone_provider_disabled", msgPhoneDisabled},
	auth.CodePhoneChange:          {422, "phone_provider_disabled", msgPhoneDisabled},
	auth.CodePasswordTooLong:      {422, "validation_failed", "Password cannot be longer than 1024 characters"},
	auth.CodeWeakPassword:         {422, "weak_password", "Password is too weak"},
	auth.CodeSamePassword:         {422, "same_password", "New password should be different from the old password."},
	auth.CodePasswordWait:         {429, "over_request_rate_limit", "Too many wrong passwords for this account. Wait %s and try again, or use \"Forgot password?\" to get a link by e-mail."},

	auth.CodeNoAuthorization:      {401, "no_authorization", "This endpoint requires a valid Bearer token"},
	auth.CodeBadJWT:               {403, "bad_jwt", "Invalid JWT"},
	auth.CodeSessionNotFound:      {403, "session_not_found", "Session from session_id claim in JWT does not exist"},
	auth.CodeUserNotFound:         {403, "user_not_found", "User from sub claim in JWT does not exist"},
	auth.CodeRefreshTokenRequired: {400, "validation_failed", "Refresh token is required"},
	auth.CodeRefreshTokenNotFound: {400, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found"},
	auth.CodeRefreshTokenUsed:     {400, "refresh_token_already_used", "Invalid Refresh Token: Already Used"},

	auth.CodeLinkInvalid:         {403, "otp_expired", msgLinkInvalid},
	auth.CodeTokenInvalid:        {403, "otp_expired", "Token has expired or is invalid"},
	auth.CodeVerifyTypeMissing:   {400, "validation_failed", "Verify requires a verification type"},
	auth.CodeTokenHashMissing:    {400, "validation_failed", "Verify requires a token_hash"},
	auth.CodeRecoverEmailMissing: {400, "validation_failed", "Password recovery requires an email"},
	auth.CodeResendTypeMissing:   {400, "validation_failed", "Resend requires a type: signup"},
	auth.CodeResendType:          {400, "validation_failed", "Unsupported resend type: use signup"},
	auth.CodeResendEmailChange:   {400, "validation_failed", "Changing the e-mail address is not offered, so there is no e-mail change to resend"},
	auth.CodeResendEmailMissing:  {400, "validation_failed", "Resend requires an email"},
	auth.CodeEmailSendLimit:      {429, "over_email_send_rate_limit", ""}, // ratelimit.EmailWait
	auth.CodePKCEIncomplete:      {400, "validation_failed", "PKCE flow requires code_challenge_method and code_challenge"},
	auth.CodePKCEMethod:          {400, "validation_failed", "code_challenge_method must be s256 or plain"},
	auth.CodePKCEChallenge:       {400, "validation_failed", "code challenge has to be between 43 and 128 characters of letters, digits, hyphens, periods, underscores and tildes"},
	auth.CodeAuthCodeMissing:     {400, "validation_failed", "invalid request: both auth code and code verifier should be non-empty"},
	auth.CodeFlowStateNotFound:   {404, "flow_state_not_found", "invalid flow state, no valid flow state found"},
	auth.CodeFlowStateExpired:    {422, "flow_state_expired", "invalid flow state, flow state has expired"},
	auth.CodeBadCodeVerifier:     {400, "bad_code_verifier", "code challenge does not match previously saved code verifier"},

	auth.CodeOTPDisabled:           {422, "otp_disabled", "Login with magic link is disabled"},
	auth.CodeReauthDisabled:        {422, "otp_disabled", "Reauthentication is disabled"},
	auth.CodeProviderDisabled:      {400, "provider_disabled", "Unsupported provider: provider is not enabled"},
	auth.CodeWeb3Disabled:          {400, "web3_provider_disabled", "Web3 provider is disabled"},
	auth.CodeSSODisabled:           {422, "sso_provider_disabled", "SAML 2.0 is disabled"},
	auth.CodeManualLinkingDisabled: {422, "manual_linking_disabled", "Manual linking is disabled"},
	auth.CodePasskeyDisabled:       {422, "passkey_disabled", "Passkeys are disabled"},
	auth.CodeNotAdmin:              {403, "not_admin", "User not allowed"},

	auth.CodeFactorType:         {400, "validation_failed", "factor_type needs to be totp"},
	auth.CodePhoneFactor:        {422, "mfa_phone_enroll_not_enabled", "MFA enroll is disabled for Phone"},
	auth.CodeWebAuthnFactor:     {422, "mfa_webauthn_enroll_not_enabled", "MFA enroll is disabled for WebAuthn"},
	auth.CodeChallengeIDMissing: {400, "validation_failed", "challenge_id is required"},
	auth.CodeCodeMissing:        {400, "validation_failed", "Code needs to be non-empty"},
	auth.CodeCodeTries:          {429, "over_request_rate_limit", "Too many codes tried. Please wait a few minutes and try again."},
	auth.CodeFactorLocked:       {429, "over_request_rate_limit", "Too many wrong codes in a row. Wait %s, then type the code your app shows."},
	auth.CodeFactorNotFound:     {404, "mfa_factor_not_found", "Factor not found"},
	auth.CodeChallengeGone:      {422, "mfa_factor_not_found", "MFA factor with the provided challenge ID not found"},
	auth.CodeChallengeExpired:   {422, "mfa_challenge_expired", "MFA challenge has expired, verify against another challenge or create a new challenge."},
	auth.CodeBadCode:            {422, "mfa_verification_failed", "Invalid TOTP code entered"},
	auth.CodeCodeReused:         {422, "mfa_verification_rejected", "This code was already used. Wait for the next code in your authenticator app."},
	auth.CodeTooManyFactors:     {422, "too_many_enrolled_mfa_factors", "Maximum number of factors reached, unenroll to continue"},
	auth.CodeFactorNameConflict: {422, "mfa_factor_name_conflict", "A factor with this friendly name already exists"},
	auth.CodeFactorNameTooLong:  {400, "validation_failed", "Friendly name must be at most 100 characters"},
	auth.CodeInsufficientAAL:    {403, "insufficient_aal", "AAL2 required: verify your two-step sign-in code first"},
	auth.CodeNoVerifiedFactor:   {403, "insufficient_aal", "Two-step sign-in is required: enrol an authenticator app first"},
	// A password-only session of an account with a verified factor
	// (docs/decisions/0217-password-alone-never-undoes-two-step.md).
	auth.CodeAAL2ToUpdateUser: {403, "insufficient_aal", "AAL2 session is required to update email or password when MFA is enabled."},
	auth.CodeAAL2ToEnroll:     {403, "insufficient_aal", "AAL2 required to enroll a new factor"},
	auth.CodeAAL2ToUnenroll:   {422, "insufficient_aal", "AAL2 required to unenroll verified factor"},
}

// Words shared with other answers (the verify page's redirect, realtime).
const (
	msgEmailInvalid  = "Unable to validate email address: invalid format"
	msgLinkInvalid   = "Email link is invalid or has expired"
	msgPhoneDisabled = "Phone logins are disabled"
)

// renderAuthError answers err in the Supabase Auth shape (status, code,
// error_code, msg; weak_password's reasons; Retry-After when the call may
// be tried again later). An error that is no *auth.Error is a fault of
// ours: it is logged as what and answered 500.
func (s *Server) renderAuthError(w http.ResponseWriter, what string, err error) {
	var e *auth.Error
	if !errors.As(err, &e) {
		s.logger.Error(what, "err", err)
		e = auth.Fail(auth.CodeUnexpected)
	}
	a, ok := authAnswers[e.Code]
	if !ok {
		s.logger.Error(what, "err", err, "code", e.Code)
		a = authAnswers[auth.CodeUnexpected]
	}
	msg := a.msg
	switch {
	case e.Detail != "":
		msg = e.Detail
	case e.Code == auth.CodeEmailSendLimit:
		msg = ratelimit.EmailWait(e.RetryAfter)
	case e.Code == auth.CodeFactorLocked, e.Code == auth.CodePasswordWait:
		msg = fmt.Sprintf(msg, ratelimit.Minutes(e.RetryAfter))
	}
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(ratelimit.Seconds(e.RetryAfter)))
	}
	w.Header().Set(apiVersionHeader, apiVersion)
	body := authError{Code: a.code, ErrorCode: a.code, Msg: msg}
	if e.Code == auth.CodeWeakPassword {
		body.WeakPassword = &weakPasswordInfo{Reasons: e.Reasons}
	}
	writeJSON(w, a.status, body)
}

// handleDisabled answers a supabase-js auth call this server does not
// offer with the hosted service's error for a disabled feature.
func (s *Server) handleDisabled(code auth.ErrorCode) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.renderAuthError(w, "disabled feature", auth.Fail(code))
	})
}
