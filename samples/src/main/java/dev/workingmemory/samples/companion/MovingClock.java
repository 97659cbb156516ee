package dev.workingmemory.samples.companion;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The replay's clock: it stands still until the replay moves it (to the next session, a minute per turn), so the
 * dates in notes, crystals and the state are those of the recorded conversation. Thread-safe.
 */
final class MovingClock extends Clock {

    private volatile Instant now;

    MovingClock(Instant start) {
        this.now = start;
    }

    void set(Instant instant) {
        now = instant;
    }

    void advance(Duration duration) {
        now = now.plus(duration);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return Clock.fixed(now, zone);
    }

    @Override
    public Instant instant() {
        return now;
    }
}
