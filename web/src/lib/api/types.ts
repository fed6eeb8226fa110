// API types derived from the generated schema by path, so they stay valid whatever
// the server names its schema components.
import type { paths } from './schema';

type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type Ok<Op> = Op extends { responses: { 200: infer R } } ? Json<R> : never;

/** The `data` member of a successful response of `method path`. */
export type ApiData<P extends keyof paths, M extends keyof paths[P]> =
  Ok<paths[P][M]> extends { data: infer D } ? D : never;

/** The JSON request body of `method path`. */
export type ApiBody<P extends keyof paths, M extends keyof paths[P]> =
  paths[P][M] extends { requestBody?: infer B } ? Json<NonNullable<B>> : never;

type Item<T> = T extends readonly (infer I)[] ? I : never;

export type SystemConfig = ApiData<'/api/config/setting', 'get'>;
export type Captcha = ApiData<'/api/common/captcha', 'get'>;
export type LoginResult = ApiData<'/api/auth/login', 'post'>;
export type AuthInfo = ApiData<'/api/auth/info', 'get'>;
export type MenuEntry = Item<ApiData<'/api/menu', 'get'>>;
export type RoleDef = Item<ApiData<'/api/role', 'get'>>;
export type User = Item<ApiData<'/api/user', 'get'>>;
export type UserInput = ApiBody<'/api/user', 'post'>;
export type Center = Item<ApiData<'/api/center/list', 'get'>>;
export type CenterInput = ApiBody<'/api/center/add', 'post'>;
export type Hospital = Item<ApiData<'/api/hospital/list', 'get'>>;
export type HospitalInput = ApiBody<'/api/hospital/add', 'post'>;
export type OperationLog = Item<ApiData<'/api/log/operation', 'get'>>;
export type Counts = ApiData<'/api/user/count', 'get'>;
