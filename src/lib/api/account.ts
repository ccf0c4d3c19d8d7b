// Typed account and cart calls over the browser's ky instance (the contract: src/server/account-schemas.ts).
// Cart and profile calls ask for a fresh token first (SPEC §4: refreshed when it expires within 30 s).
import type { KyInstance } from 'ky';
import type {
  CartDto,
  CodeSentDto,
  NewCartLineInput,
  RegisterInput,
  LoginInput,
  ProfileSavedDto,
  SessionDto,
  StockAlertDto,
  StockAlertInput,
  UserDto,
} from '../../server/account-schemas.ts';
import type { SessionContext } from './session-hooks.ts';

const fresh: { context: SessionContext } = { context: { fresh: true } };
const credentials: { context: SessionContext } = { context: { credentials: true } };

export interface Message {
  message: string;
}

export function accountCalls(api: KyInstance) {
  return {
    /** Texts a code to the new shopper's number; verifyCode with it opens the account. */
    register: (input: RegisterInput) => api.post('Authenticate/Register', { json: input, ...credentials }).json<CodeSentDto>(),
    /** Texts a sign-in code to the number, if an account has it (the answer is the same either way). */
    requestCode: (phone: string) => api.post('Authenticate/RequestCode', { json: { phone }, ...credentials }).json<CodeSentDto>(),
    /** The code, with the challenge of the CodeSent answer it came with. */
    verifyCode: (phone: string, code: string, challenge: string) =>
      api.post('Authenticate/VerifyCode', { json: { phone, code, challenge }, ...credentials }).json<SessionDto>(),
    /** Texts a code to the signed-in shopper's own number, to verify it before the first order. */
    sendPhoneCode: () => api.post('app/Users/Me/PhoneCode', fresh).json<CodeSentDto>(),
    verifyPhone: (code: string) => api.post('app/Users/Me/VerifyPhone', { json: { code }, ...fresh }).json<UserDto>(),
    login: (input: LoginInput) => api.post('Authenticate/Login', { json: input, ...credentials }).json<SessionDto>(),
    logout: (refreshToken: string) => api.post('Authenticate/Logout', { json: { refreshToken }, ...credentials }),
    forgotPassword: (email: string) => api.post('Authenticate/ForgotPassword', { json: { email }, ...credentials }).json<Message>(),
    resetPassword: (token: string, password: string) =>
      api.post('Authenticate/ResetPassword', { json: { token, password }, ...credentials }).json<Message>(),
    changePassword: (currentPassword: string, newPassword: string) =>
      api.post('Authenticate/ChangePassword', { json: { currentPassword, newPassword }, ...fresh }).json<SessionDto>(),
    me: () => api.get('app/Users/Me', fresh).json<UserDto>(),
    /** Saves the name; a new number is texted a code, and verifyPhone with it makes it the account's. */
    updateMe: (input: { name: string; phone: string; smsNotices?: boolean; pincode?: string | null }) => api.put('app/Users/Me', { json: input, ...fresh }).json<ProfileSavedDto>(),
  };
}

const keyed = (key: string | undefined) => (key ? { headers: { 'Idempotency-Key': key } } : {});

export function cartCalls(api: KyInstance) {
  return {
    /** SPEC §7: the badge's count. */
    total: (userId: string) => api.get(`app/Carts/GetTotalCart/${encodeURIComponent(userId)}`, fresh).json<{ cartsTotal: number }>(),
    /** With a coupon code, the cart is priced with it too, and `coupon` says whether it applies or why not (issue 25). */
    cart: (userId: string, coupon?: string) =>
      api
        .get(`app/Carts/GetCartsByUser/${encodeURIComponent(userId)}`, { ...fresh, ...(coupon ? { searchParams: { coupon } } : {}) })
        .json<CartDto>(),
    /** SPEC §3's cart line payload to /api/app/Carts (the reading that answers 201 with the whole cart). */
    // With a key (issue 26), the API counts the change once however often it is sent (a change queued offline).
    add: (line: NewCartLineInput, key?: string) => api.post('app/Carts', { json: line, ...fresh, ...keyed(key) }).json<CartDto>(),
    setQty: (lineId: number, qty: number, key?: string) =>
      api.put(`app/Carts/${lineId}`, { json: { qty }, ...fresh, ...keyed(key) }).json<CartDto>(),
    remove: (lineId: number, key?: string) => api.delete(`app/Carts/${lineId}`, { ...fresh, ...keyed(key) }).json<CartDto>(),
    /** 'Notify me when back' for an out-of-stock product (pack), and its undoing (issue 24). */
    notifyWhenBack: (target: StockAlertInput) => api.post('app/StockAlerts', { json: target, ...fresh }).json<StockAlertDto>(),
    stopNotifying: (target: StockAlertInput) => api.delete('app/StockAlerts', { json: target, ...fresh }).json<StockAlertDto>(),
  };
}
