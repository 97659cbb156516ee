package dev.workingmemory.internal;

import dev.workingmemory.testing.CapturedLog;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class MinuteWarningTest {

    private final AtomicLong now = new AtomicLong(123_456_789L);
    private final MinuteWarning warning = new MinuteWarning(LoggerFactory.getLogger(MinuteWarningTest.class), now::get);

    @Test
    void should_log_the_first_warning_and_hold_back_the_others_of_that_minute() {
        try (CapturedLog log = CapturedLog.start()) {
            warning.warn("Store {} is down", "a");
            now.addAndGet(TimeUnit.SECONDS.toNanos(59));
            warning.warn("Store {} is down", "b");
            warning.warn("Store {} is down", "c");

            assertThat(log.lines("WARN")).hasSize(1);
            assertThat(log.lines("WARN").get(0)).endsWith("Store a is down");
        }
    }

    @Test
    void should_say_how_many_were_held_back_when_the_next_minute_logs() {
        try (CapturedLog log = CapturedLog.start()) {
            warning.warn("Store {} is down", "a");
            warning.warn("Store {} is down", "b");
            warning.warn("Store {} is down", "c");
            now.addAndGet(TimeUnit.MINUTES.toNanos(1));
            warning.warn("Store {} is down", "d");
            now.addAndGet(TimeUnit.MINUTES.toNanos(1));
            warning.warn("Store {} is down", "e");

            assertThat(log.lines("WARN")).hasSize(3);
            assertThat(log.lines("WARN").get(1))
                    .endsWith("Store d is down (2 more like it held back since the last warning)");
            assertThat(log.lines("WARN").get(2)).endsWith("Store e is down");
        }
    }

    @Test
    void should_keep_a_throwable_last_so_that_its_stack_trace_is_logged() {
        try (CapturedLog log = CapturedLog.start()) {
            warning.warn("Store {} is down", "a", new IllegalStateException("first"));
            warning.warn("Store {} is down", "b", new IllegalStateException("second"));
            now.addAndGet(TimeUnit.MINUTES.toNanos(2));
            warning.warn("Store {} is down", "c", new IllegalStateException("third"));

            String text = log.text();
            assertThat(text).contains("Store c is down (1 more like it held back since the last warning)")
                    .contains("java.lang.IllegalStateException: third")
                    .doesNotContain("second");
        }
    }

    @Test
    void should_be_due_once_a_minute_for_a_caller_that_logs_itself() {
        assertThat(warning.due()).isTrue();
        assertThat(warning.due()).isFalse();
        now.addAndGet(TimeUnit.MINUTES.toNanos(1) - 1);
        assertThat(warning.due()).isFalse();
        now.incrementAndGet();
        assertThat(warning.due()).isTrue();
    }
}
