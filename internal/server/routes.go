package server

import (
	"net/http"

	"salaula/internal/auth"
)

// routes lists every HTTP route the server answers.
func (s *Server) routes(mux *http.ServeMux) {
	// Operations.
	mux.Handle("GET /healthz", s.handleHealth())
	mux.Handle("GET /readyz", s.handleReady())
	mux.Handle("GET /metrics", s.handleMetrics())
	mux.Handle("GET /config.json", s.handleConfig())
	mux.Handle("GET /settings.json", s.handleSettings())

	// Auth: the Supabase Auth contract used by supabase-js v2.
	mux.Handle("GET /auth/v1/settings", s.handleAuthSettings())
	mux.Handle("POST /auth/v1/signup", s.limitAuth(s.handleSignup()))
	mux.Handle("POST /auth/v1/token", s.handleToken()) // limits grant_type=password only
	mux.Handle("GET /auth/v1/user", s.handleGetUser())
	mux.Handle("PUT /auth/v1/user", s.handleUpdateUser())
	mux.Handle("POST /auth/v1/logout", s.handleLogout())
	mux.Handle("POST /auth/v1/recover", s.limitAuth(s.handleRecover()))
	mux.Handle("POST /auth/v1/verify", s.limitAuth(s.handleVerify()))
	mux.Handle("GET /auth/v1/verify", s.limitAuth(s.handleVerifyPage()))
	mux.Handle("POST /auth/v1/resend", s.limitAuth(s.handleResend()))
	mux.Handle("GET /auth/v1/.well-known/jwks.json", s.handleJWKS())
	mux.Handle("POST /auth/v1/factors", s.handleEnrollFactor())
	mux.Handle("POST /auth/v1/factors/{id}/challenge", s.handleChallengeFactor())
	mux.Handle("POST /auth/v1/factors/{id}/verify", s.handleVerifyFactor())
	mux.Handle("DELETE /auth/v1/factors/{id}", s.handleUnenrollFactor())
	// Calls supabase-js can make that this server does not offer: the hosted
	// service's disabled-feature codes, so the client shows a sensible message.
	mux.Handle("POST /auth/v1/otp", s.handleOTP())
	mux.Handle("POST /auth/v1/magiclink", s.handleDisabled(auth.CodeOTPDisabled))
	mux.Handle("GET /auth/v1/reauthenticate", s.handleDisabled(auth.CodeReauthDisabled))
	mux.Handle("GET /auth/v1/authorize", s.handleDisabled(auth.CodeProviderDisabled))
	mux.Handle("POST /auth/v1/sso", s.handleDisabled(auth.CodeSSODisabled))
	mux.Handle("GET /auth/v1/user/identities/authorize", s.handleDisabled(auth.CodeManualLinkingDisabled))
	mux.Handle("DELETE /auth/v1/user/identities/{id}", s.handleDisabled(auth.CodeManualLinkingDisabled))
	mux.Handle("POST /auth/v1/passkeys/", s.handleDisabled(auth.CodePasskeyDisabled))
	for _, m := range []string{"GET", "POST", "PUT", "DELETE"} {
		mux.Handle(m+" /auth/v1/admin/", s.handleDisabled(auth.CodeNotAdmin))
	}
	mux.Handle("POST /auth/v1/invite", s.handleDisabled(auth.CodeNotAdmin))
	mux.Handle("/auth/v1/", withAuthAPIVersion(s.handleAPINotFound()))

	// Functions: the serverless functions the app invokes.
	mux.Handle("POST /functions/v1/contact-form-submit", s.limitForms(s.handleContactFormSubmit()))
	mux.Handle("POST /functions/v1/waitlist-signup", s.limitForms(s.handleWaitlistSignup()))
	mux.Handle("GET /functions/v1/waitlist-confirm", s.handleWaitlistConfirm())                  // a page with a button
	mux.Handle("POST /functions/v1/waitlist-confirm", s.handleWaitlistConfirm())                 // the button
	mux.Handle("GET /functions/v1/waitlist-unsubscribe", s.handleWaitlistUnsubscribe())          // a page with a button
	mux.Handle("POST /functions/v1/waitlist-unsubscribe", s.handleWaitlistUnsubscribe())         // the button; one-click (RFC 8058)
	mux.Handle("GET /functions/v1/announcement-unsubscribe", s.handleAnnouncementUnsubscribe())  // a page with a button
	mux.Handle("POST /functions/v1/announcement-unsubscribe", s.handleAnnouncementUnsubscribe()) // the button; one-click (RFC 8058)
	mux.Handle("POST /functions/v1/get-profile-me", s.handleGetProfileMe())
	mux.Handle("POST /functions/v1/onboard-new-user", s.handleOnboardNewUser())
	mux.Handle("POST /functions/v1/onboard-seller", s.handleOnboardSeller())
	mux.Handle("POST /functions/v1/account-export", s.handleAccountExport())
	mux.Handle("POST /functions/v1/account-delete", s.limitAuthFunction(s.handleAccountDelete()))
	mux.Handle("POST /functions/v1/account-address", s.handleAccountAddress())
	mux.Handle("POST /functions/v1/account-prove-email", s.limitAuthFunction(s.handleSendProof()))
	mux.Handle("POST /functions/v1/account-prove-email-verify", s.limitAuthFunction(s.handleProveAddress()))
	mux.Handle("OPTIONS /functions/v1/", s.handlePreflight())
	mux.Handle("/functions/v1/", s.handleFunctionNotFound(mux)) // 405 with Allow for a function's other methods

	// Storage: the Supabase Storage contract for the user-media bucket.
	mux.Handle("POST /storage/v1/object/{bucket}/{path...}", s.limitUploads(s.handleUploadObject()))
	mux.Handle("PUT /storage/v1/object/{bucket}/{path...}", s.limitUploads(s.handleUploadObject()))
	mux.Handle("GET /storage/v1/object/public/{bucket}/{path...}", s.handlePublicObject())
	mux.Handle("DELETE /storage/v1/object/{bucket}", s.handleRemoveObjects())
	mux.Handle("POST /storage/v1/object/list/{bucket}", s.handleListObjects())
	mux.Handle("GET /storage/v1/object/info/{bucket}/{path...}", s.handleObjectInfo())
	mux.Handle("POST /storage/v1/object/sign/{bucket}/{path...}", s.handleSignObject())
	mux.Handle("POST /storage/v1/object/sign/{bucket}", s.handleSignObjects())
	mux.Handle("GET /storage/v1/object/sign/{bucket}/{path...}", s.handleSignedObject())
	mux.Handle("GET /storage/v1/object/{bucket}/{path...}", s.handleOwnObject())
	mux.Handle("GET /storage/v1/object/authenticated/{bucket}/{path...}", s.handleOwnObject())
	mux.Handle("GET /storage/v1/render/image/public/{bucket}/{path...}", s.handleRenderPublic())
	mux.Handle("GET /storage/v1/render/image/authenticated/{bucket}/{path...}", s.handleRenderAuthenticated())
	mux.Handle("GET /storage/v1/render/image/sign/{bucket}/{path...}", s.handleRenderSigned())
	// storage-js calls this server does not offer, answered for what they are.
	mux.Handle("POST /storage/v1/object/upload/sign/{bucket}/{path...}", s.handleNotOffered("Uploading through a signed URL", "upload with your session instead"))
	mux.Handle("PUT /storage/v1/object/upload/sign/{bucket}/{path...}", s.handleNotOffered("Uploading through a signed URL", "upload with your session instead"))
	mux.Handle("POST /storage/v1/object/list-v2/{bucket}", s.handleNotOffered("list-v2", "use list() instead"))
	mux.Handle("POST /storage/v1/object/move", s.handleNotOffered("Moving a file", "upload it under its new path and remove the old one"))
	mux.Handle("POST /storage/v1/object/copy", s.handleNotOffered("Copying a file", "upload it again under the new path"))
	mux.Handle("/storage/v1/", s.handleStorageNotFound())

	// First-party analytics: page views the app sends (no anon key).
	mux.Handle("POST /analytics/v1/event", s.limitAnalytics(s.handleAnalyticsEvent()))
	mux.Handle("/analytics/v1/", s.handleAPINotFound())

	// The founders' console (operators only; same-origin, no CORS).
	mux.Handle("GET /admin/v1/overview", s.handleAdminOverview())
	mux.Handle("GET /admin/v1/waitlist", s.handleAdminWaitlist())
	mux.Handle("GET /admin/v1/waitlist.csv", s.handleAdminWaitlistCSV())
	mux.Handle("GET /admin/v1/messages", s.handleAdminMessages())
	mux.Handle("GET /admin/v1/messages.csv", s.handleAdminMessagesCSV())
	mux.Handle("PATCH /admin/v1/messages/{id}", s.handleAdminUpdateMessage())
	mux.Handle("GET /admin/v1/people", s.handleAdminPeople())
	mux.Handle("GET /admin/v1/people.csv", s.handleAdminPeopleCSV())
	mux.Handle("GET /admin/v1/people/{id}", s.handleAdminPerson())
	mux.Handle("POST /admin/v1/people/{id}/sign-out", s.handleAdminSignOutPerson())
	mux.Handle("GET /admin/v1/audit", s.handleAdminAudit())
	mux.Handle("GET /admin/v1/settings", s.handleAdminSettings())
	mux.Handle("PUT /admin/v1/settings/{key}", s.handleAdminSetSetting())
	mux.Handle("GET /admin/v1/analytics", s.handleAdminAnalytics())
	mux.Handle("GET /admin/v1/announcements", s.handleAdminAnnouncements())
	mux.Handle("POST /admin/v1/announcements", s.handleAdminCreateAnnouncement())
	mux.Handle("GET /admin/v1/announcements/{id}", s.handleAdminAnnouncement())
	mux.Handle("PATCH /admin/v1/announcements/{id}", s.handleAdminEditAnnouncement())
	mux.Handle("GET /admin/v1/announcements/{id}/preview", s.handleAdminPreviewAnnouncement())
	mux.Handle("POST /admin/v1/announcements/{id}/test", s.handleAdminTestAnnouncement())
	mux.Handle("POST /admin/v1/announcements/{id}/{action}", s.handleAdminMoveAnnouncement()) // send, pause, resume, cancel
	mux.Handle("GET /admin/v1/bounces", s.handleAdminBounces())
	mux.Handle("GET /admin/v1/referrals", s.handleAdminReferrals())
	mux.Handle("GET /admin/v1/referrals/{id}", s.handleAdminReferralsOf())
	mux.Handle("/admin/v1/", s.handleAPINotFound())

	// Realtime: the Supabase Realtime socket used by supabase-js v2's channel().
	mux.Handle("GET /realtime/v1/websocket", s.handleRealtime())
	mux.Handle("POST /realtime/v1/api/broadcast", s.handleRealtimeBroadcast())
	mux.Handle("POST /realtime/v1/api/broadcast/{topic}/events/{event}", s.handleRealtimeSendEvent())
	mux.Handle("OPTIONS /realtime/v1/", s.handlePreflight())
	mux.Handle("/realtime/v1/", s.handleAPINotFound())

	// CORS preflight for every API path.
	mux.Handle("OPTIONS /auth/v1/", s.handlePreflight())
	mux.Handle("OPTIONS /storage/v1/", s.handlePreflight())

	// Everything else is the React app.
	mux.Handle("/", s.handleApp())
}
