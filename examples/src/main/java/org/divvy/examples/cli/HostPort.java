package org.divvy.examples.cli;

/**
 * A {@code host:port} address as given to {@code --join}, checked before any network code sees it so
 * a typo gets a message naming the flag.
 *
 * @param host a host name or IPv4 address
 * @param port a UDP port in [1, 65535]
 */
public record HostPort(String host, int port) {
    /** Parses {@code text} for option {@code option}; throws {@link IllegalArgumentException} naming both. */
    public static HostPort parse(final String option, final String text) {
        final int colon = text == null ? -1 : text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException(option + "=" + text + ", must be HOST:PORT, e.g. 192.168.1.10:40123");
        }
        final String host = text.substring(0, colon);
        final int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (final NumberFormatException e) {
            throw new IllegalArgumentException(option + "=" + text + ": port '" + text.substring(colon + 1)
                + "' must be an integer in [1, 65535]");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException(option + "=" + text + ": port " + port + ", must be in [1, 65535]");
        }
        return new HostPort(host, port);
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
