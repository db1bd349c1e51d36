import { useQuery } from "@tanstack/react-query";
import { usersApi, usersQueryKey } from "./users-api";

/** Every user (administrators only may ask). */
export function useUsers() {
  return useQuery({ queryKey: usersQueryKey, queryFn: ({ signal }) => usersApi.list(signal) });
}
