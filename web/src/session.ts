/** The bearer token of the signed-in person, kept for the browser tab only. */
const KEY = 'almanac.token';

export const getToken = (): string | null => sessionStorage.getItem(KEY);
export const setToken = (token: string): void => sessionStorage.setItem(KEY, token);
export const clearToken = (): void => sessionStorage.removeItem(KEY);
