package dev.workingmemory.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A UTC clock that stands still until a test sets or advances it. Thread-safe. */
public final class SettableClock extends Clock {

    private volatile Instant now;

    public SettableClock(String start) {
        this.now = Instant.parse(start);
    }

    public void set(String instant) {
        now = Instant.parse(instant);
    }

    public void advance(Duration duration) {
        now = now.plus(duration);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        return now;
    }
}
