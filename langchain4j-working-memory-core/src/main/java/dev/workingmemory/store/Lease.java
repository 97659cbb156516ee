package dev.workingmemory.store;

import dev.workingmemory.internal.Ensure;

import java.time.Duration;
import java.time.Instant;
import java.util.regex.Pattern;

/**
 * A lease as the embedded stores keep it: who holds it and until when.
 *
 * <p>Immutable and thread-safe.
 */
record Lease(String owner, Instant expires) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    static String checkName(String name) {
        Ensure.notNull(name, "name");
        Ensure.that(NAME.matcher(name).matches(), "A lease name is 1 to 64 letters, digits, '-' and '_'; was '" + name + "'");
        return name;
    }

    static void checkRequest(String owner, Duration ttl) {
        Ensure.notBlank(owner, "owner");
        Ensure.notNull(ttl, "ttl");
        Ensure.that(!ttl.isNegative() && !ttl.isZero(), "ttl must be positive, was " + ttl);
    }

    /** Whether {@code owner} may take this lease at {@code now}: it is free (expired) or already theirs. */
    boolean availableTo(String owner, Instant now) {
        return this.owner.equals(owner) || !expires.isAfter(now);
    }
}
