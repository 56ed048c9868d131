package server

import "salaula/internal/auth"

// The words of auth failures the tests expect, from the renderer's table.
var (
	msgAnonymousDisabled   = authAnswers[auth.CodeAnonymousDisabled].msg
	msgCredentialsRequired = authAnswers[auth.CodeCredentialsRequired].msg
	msgEmailNotConfirmed   = authAnswers[auth.CodeEmailNotConfirmed].msg
	msgInvalidCredentials  = authAnswers[auth.CodeInvalidCredentials].msg
	msgPasswordTooLong     = authAnswers[auth.CodePasswordTooLong].msg
	msgRefreshNotFound     = authAnswers[auth.CodeRefreshTokenNotFound].msg
	msgRefreshUsed         = authAnswers[auth.CodeRefreshTokenUsed].msg
	msgSamePassword        = authAnswers[auth.CodeSamePassword].msg
	msgSignupDisabled      = authAnswers[auth.CodeSignupDisabled].msg
	msgUserExists          = authAnswers[auth.CodeUserExists].msg
	msgTokenInvalid        = authAnswers[auth.CodeTokenInvalid].msg
)
