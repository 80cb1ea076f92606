/**
 * A port on 127.0.0.1 where nothing listens, so a connection is refused at once.
 *
 * Port 1 (tcpmux) is privileged and unused on any machine these tests run on. A port freed
 * after `listen(0)` would not do: port 0 may hand it to another test's server before the
 * connection is tried, and the test would then reach that server (a rare flake).
 */
export const refusedPort = 1;
