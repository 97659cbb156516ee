package dev.workingmemory.internal;

import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.Month;
import java.time.MonthDay;
import java.time.Period;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.temporal.TemporalAdjusters;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The calendar days a search query asks about ("what did we decide on March 3?", "on 9 November, 2022", "in January
 * 2024", "2024-04-05"), so that what was said on that day, or names it, comes first (issue 20: an agent asked about
 * a day should look at that day).
 *
 * <p>Read: a day with or without its year (the day before and after count too: the asker's day and a crystal's UTC
 * time may differ by one), a month with its year, as ISO dates or in English words; a span between two such dates
 * ("between May 2 and May 9, 2023", "from 2024-03-01 to 2024-03-05"); the days a period before or after one ("the
 * week before August 3, 2023": what was said from July 27 to August 3, when it may have been told as "last week").
 * A past day counted back from the asker's today ("yesterday", "the day before yesterday", "3 days ago", "two weeks
 * ago", "last week", "last month", "last weekend", "last Friday"), when the search knows today.
 * Not read: a date that bounds a span open at one end ("until April 9", "since 2024-01-02", "before May 2": the answer
 * lies anywhere before or after it), a month alone ("in May": too often a word or a name), a year alone (too wide to
 * help), and a day that may be ahead ("today", "this week", "on Monday": what is due then is asked about as often as
 * what was said then).
 *
 * <p>Thread-safe (immutable).
 */
final class QueryDates {

    private static final String MONTH = "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?"
            + "|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?";
    private static final String DAY = "(\\d{1,2})(?:st|nd|rd|th)?";
    private static final String YEAR = "(?:,?\\s+(\\d{4})(?!\\d))?";
    private static final Pattern ISO = Pattern.compile("(?<!\\d)(\\d{4})-(\\d{1,2})-(\\d{1,2})(?!\\d)");
    private static final Pattern DAY_MONTH = Pattern.compile("(?<![\\p{L}\\d])" + DAY + "\\s+(?:of\\s+)?" + MONTH
            + "(?!\\p{L})" + YEAR, Pattern.CASE_INSENSITIVE);
    private static final Pattern MONTH_DAY = Pattern.compile("(?<!\\p{L})" + MONTH + "\\s+" + DAY + "(?![\\p{L}\\d])"
            + YEAR, Pattern.CASE_INSENSITIVE);
    private static final Pattern MONTH_YEAR = Pattern.compile("(?<!\\p{L})" + MONTH + ",?\\s+(\\d{4})(?!\\d)",
            Pattern.CASE_INSENSITIVE);
    private static final Map<String, Month> MONTHS = months();
    /** Months that are English words too, as the words are written. */
    private static final Set<String> WORDS_TOO = Set.of("may", "march", "mar");
    /** Words that make the date after them the bound of a span ("until April 9"), not a day something happened. */
    private static final Set<String> BOUNDS = Set.of("until", "till", "before", "after", "since", "by", "between",
            "to", "through");
    /**
     * "between" and "from" open a span that a second date right after closes ("between May 2 and May 9"); "from"
     * alone is where something came from ("the notes from March 3").
     */
    private static final Set<String> PAIR_OPENERS = Set.of("between", "from");
    private static final Pattern PAIR_CLOSERS = Pattern.compile("[\\s,]*(?:and|to|until|till|through|-|–)[\\s,]*",
            Pattern.CASE_INSENSITIVE);
    /** A period right before "before" or "after" ("the week before May 9", "two weeks after 2024-03-01"). */
    private static final Pattern PERIOD = Pattern.compile("(?<![\\p{L}\\d])"
            + "(?:(\\d{1,2}|a|one|two|three|four|five|six)\\s+)?"
            + "(days?|weeks?|weekends?|months?|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\\s+$",
            Pattern.CASE_INSENSITIVE);
    /**
     * A past day named from today ("yesterday", "last week", "3 days ago", "last Monday"). Not "today", "this week" or
     * "on Monday": what is due then is as likely asked about as what was said then.
     */
    private static final Pattern RELATIVE = Pattern.compile("(?<![\\p{L}\\d])(?:(the day before yesterday)"
            + "|(yesterday)|(\\d{1,2}|a|an|one|two|three|four|five|six) (days?|weeks?|months?) ago"
            + "|last (week|month|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday))(?!\\p{L})",
            Pattern.CASE_INSENSITIVE);
    /** The most dates read from a query, and from a crystal's text: a question names a few days, not hundreds. */
    private static final int MAX_DATES = 16;
    private static final Map<String, Integer> COUNTS = Map.of("a", 1, "an", 1, "one", 1, "two", 2, "three", 3,
            "four", 4, "five", 5, "six", 6);

    /** The times a crystal's day is read for: a date the query names has a year of four digits. */
    private static final Instant EARLIEST = Instant.parse("0000-01-02T00:00:00Z");
    private static final Instant LATEST = Instant.parse("9999-12-30T00:00:00Z");

    private final List<Span> spans;

    private QueryDates(List<Span> spans) {
        this.spans = spans;
    }

    /**
     * @param today the asker's day, from which "yesterday", "last week", "3 days ago", "on Monday" count; null to read
     *              no such day
     * @return the days the query asks about; empty when it names none
     */
    static QueryDates in(String query, LocalDate today) {
        return new QueryDates(read(query, today, true));
    }

    /** @return whether the query asks about no day */
    boolean isEmpty() {
        return spans.isEmpty();
    }

    /**
     * @param time when a crystal was made (may be null)
     * @param text its text
     * @return whether it was made on a day the query asks about, or names such a day
     */
    boolean match(Instant time, String text) {
        if (spans.isEmpty()) {
            return false;
        }
        if (time != null && time.isAfter(EARLIEST) && time.isBefore(LATEST)) {
            Span made = Span.of(LocalDate.ofInstant(time, ZoneOffset.UTC));
            for (Span span : spans) {
                if (span.overlaps(made)) {
                    return true;
                }
            }
        }
        for (Span named : read(text, null, false)) {
            for (Span span : spans) {
                if (span.overlaps(named)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * @param asked whether the text is a query: a date that bounds a span is then read as the query means it (a span
     *              between two dates, the days a period before or after one) or not at all
     * @return the dates in the text
     */
    private static List<Span> read(String text, LocalDate today, boolean asked) {
        if (text == null || text.isEmpty()) {
            return List.of();
        }
        List<Found> found = new ArrayList<>(1);
        boolean[] taken = new boolean[text.length()];
        Matcher iso = ISO.matcher(text);
        while (iso.find()) {
            add(found, taken, iso, day(iso.group(1), iso.group(2), iso.group(3)));
        }
        Matcher dayMonth = DAY_MONTH.matcher(text);
        while (dayMonth.find()) {
            add(found, taken, dayMonth, day(dayMonth.group(3), dayMonth.group(2), dayMonth.group(1)));
        }
        Matcher monthDay = MONTH_DAY.matcher(text);
        while (monthDay.find()) {
            add(found, taken, monthDay, day(monthDay.group(3), monthDay.group(1), monthDay.group(2)));
        }
        Matcher monthYear = MONTH_YEAR.matcher(text);
        while (monthYear.find()) {
            add(found, taken, monthYear, month(monthYear.group(2), monthYear.group(1)));
        }
        if (today != null) {
            Matcher relative = RELATIVE.matcher(text);
            while (relative.find()) {
                add(found, taken, relative, relative(relative, today));
            }
        }
        if (!asked) {
            return found.stream().map(Found::span).toList();
        }
        found.sort(Comparator.comparingInt(Found::start));
        List<Span> spans = new ArrayList<>(found.size());
        for (int i = 0; i < found.size(); i++) {
            Found date = found.get(i);
            String before = wordBefore(text, date.start());
            if (PAIR_OPENERS.contains(before) && i + 1 < found.size()
                    && PAIR_CLOSERS.matcher(text.substring(date.end(), found.get(i + 1).start())).matches()) {
                Span between = Span.between(date.span(), found.get(++i).span());
                if (between != null) {
                    spans.add(between);
                }
            } else if (before.equals("before") || before.equals("after")) {
                Matcher period = PERIOD.matcher(text.substring(0, wordStart(text, date.start())));
                if (period.find()) {
                    spans.add(date.span().widened(Period.ofDays(days(period)), before.equals("before")));
                }
            } else if (!BOUNDS.contains(before)) {
                spans.add(date.span());
            }
        }
        return spans;
    }

    /** @return the days a period ("the week", "two weeks", "last weekend", "the Sunday") spans at most */
    private static int days(Matcher period) {
        String count = period.group(1) == null ? "one" : period.group(1).toLowerCase(Locale.ROOT);
        int n = Character.isDigit(count.charAt(0)) ? Integer.parseInt(count) : COUNTS.getOrDefault(count, 1);
        String unit = period.group(2).toLowerCase(Locale.ROOT);
        int days = unit.startsWith("day") ? 1 : unit.startsWith("month") ? 31 : 7; // a week, a weekend, a weekday
        return Math.min(n, 12) * days;
    }

    private static void add(List<Found> found, boolean[] taken, Matcher match, Span span) {
        if (found.size() == MAX_DATES) {
            return;
        }
        for (int i = match.start(); i < match.end(); i++) {
            if (taken[i]) {
                return; // part of a date read by a more precise pattern
            }
        }
        if (span == null) {
            return;
        }
        for (int i = match.start(); i < match.end(); i++) {
            taken[i] = true;
        }
        found.add(new Found(match.start(), match.end(), span));
    }

    /** A date read, where it is in the text. */
    private record Found(int start, int end, Span span) {
    }

    /** @return the word right before {@code at}, lower case; "" when none */
    private static String wordBefore(String text, int at) {
        int start = wordStart(text, at);
        int end = start;
        while (end < at && Character.isLetter(text.charAt(end))) {
            end++;
        }
        return text.substring(start, end).toLowerCase(Locale.ROOT);
    }

    /** @return where the word right before {@code at} starts ({@code at}'s start of non-letters when none) */
    private static int wordStart(String text, int at) {
        int end = at;
        while (end > 0 && !Character.isLetter(text.charAt(end - 1))) {
            end--;
        }
        int start = end;
        while (start > 0 && Character.isLetter(text.charAt(start - 1))) {
            start--;
        }
        return start;
    }

    /** @return the days a phrase counted back from today names */
    private static Span relative(Matcher match, LocalDate today) {
        if (match.group(1) != null) {
            return Span.of(today.minusDays(2));
        }
        if (match.group(2) != null) {
            return Span.of(today.minusDays(1));
        }
        if (match.group(4) != null) {
            String count = match.group(3).toLowerCase(Locale.ROOT);
            int n = Character.isDigit(count.charAt(0)) ? Integer.parseInt(count) : COUNTS.getOrDefault(count, 1);
            String unit = match.group(4).toLowerCase(Locale.ROOT);
            if (unit.startsWith("day")) {
                return Span.of(today.minusDays(n));
            }
            if (unit.startsWith("week")) {
                LocalDate day = today.minusWeeks(n);
                return new Span(day.minusDays(3), day.plusDays(3), null); // "a week ago": about then
            }
            YearMonth month = YearMonth.from(today.minusMonths(n));
            return new Span(month.atDay(1), month.atEndOfMonth(), null);
        }
        String last = match.group(5).toLowerCase(Locale.ROOT);
        if (last.equals("week")) {
            LocalDate monday = today.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
            return new Span(monday.minusDays(7), monday.minusDays(1), null);
        }
        if (last.equals("month")) {
            YearMonth month = YearMonth.from(today).minusMonths(1);
            return new Span(month.atDay(1), month.atEndOfMonth(), null);
        }
        if (last.equals("weekend")) {
            LocalDate sunday = today.with(TemporalAdjusters.previous(DayOfWeek.SUNDAY));
            return new Span(sunday.minusDays(1), sunday, null);
        }
        return Span.of(today.with(TemporalAdjusters.previous(DayOfWeek.valueOf(last.toUpperCase(Locale.ROOT)))));
    }

    /** @return the day, or null when it is none (the 31st of April, month 13) */
    private static Span day(String year, String month, String day) {
        Month named = monthOf(month);
        if (named == null) {
            return null;
        }
        try {
            int dayOfMonth = Integer.parseInt(day);
            if (year == null) {
                return new Span(null, null, MonthDay.of(named, dayOfMonth));
            }
            return Span.of(LocalDate.of(Integer.parseInt(year), named, dayOfMonth));
        } catch (DateTimeException e) {
            return null;
        }
    }

    private static Span month(String year, String month) {
        Month named = monthOf(month);
        if (named == null) {
            return null;
        }
        try {
            YearMonth yearMonth = YearMonth.of(Integer.parseInt(year), named);
            return new Span(yearMonth.atDay(1), yearMonth.atEndOfMonth(), null);
        } catch (DateTimeException e) {
            return null;
        }
    }

    private static Month monthOf(String text) {
        if (WORDS_TOO.contains(text)) {
            return null; // "the top 5 may be wrong", "we march 5 miles": only a capital makes them months
        }
        String key = text.toLowerCase(Locale.ROOT).replace(".", "");
        if (Character.isDigit(key.charAt(0))) {
            int number = Integer.parseInt(key);
            return number >= 1 && number <= 12 ? Month.of(number) : null;
        }
        return MONTHS.get(key.substring(0, 3));
    }

    private static Map<String, Month> months() {
        Map<String, Month> months = new HashMap<>();
        for (Month month : Month.values()) {
            months.put(month.name().substring(0, 3).toLowerCase(Locale.ROOT), month);
        }
        return Map.copyOf(months);
    }

    /**
     * The days from {@code first} to {@code last} (both in), or, without a year, one day of any year. Two spans
     * overlap when they are at most a day apart: the asker's day and a crystal's UTC time may differ by one.
     */
    private record Span(LocalDate first, LocalDate last, MonthDay anyYear) {

        static Span of(LocalDate day) {
            return new Span(day, day, null);
        }

        /**
         * @return from the first span's start to the second's end, a day without its year taking the other's; null
         * when neither has a year or they run backwards
         */
        static Span between(Span from, Span to) {
            LocalDate first = from.anyYear == null ? from.first
                    : to.anyYear == null ? from.anyYear.atYear(to.first.getYear()) : null;
            LocalDate last = to.anyYear == null ? to.last
                    : from.anyYear == null ? to.anyYear.atYear(from.last.getYear()) : null;
            return first == null || last == null || last.isBefore(first) ? null : new Span(first, last, null);
        }

        /** @return this span and the {@code period} before it (or after it) */
        Span widened(Period period, boolean before) {
            if (anyYear != null) {
                return this; // no year to count back from: the day itself, in any year
            }
            return before ? new Span(first.minus(period), last, null) : new Span(first, last.plus(period), null);
        }

        boolean overlaps(Span other) {
            if (anyYear != null && other.anyYear != null) {
                // in a leap year, so that February 29 has its own day; December 31 and January 1 are a day apart too
                int apart = Math.abs(anyYear.atYear(2000).getDayOfYear() - other.anyYear.atYear(2000).getDayOfYear());
                return apart <= 1 || apart >= 365;
            }
            if (anyYear != null || other.anyYear != null) {
                Span dated = anyYear != null ? other : this;
                MonthDay day = anyYear != null ? anyYear : other.anyYear;
                if (dated.last.toEpochDay() - dated.first.toEpochDay() >= 365) {
                    return true; // a year or more holds every day of the year
                }
                for (int year = dated.first.getYear() - 1; year <= dated.last.getYear() + 1; year++) {
                    LocalDate date = day.atYear(year);
                    if (!date.isBefore(dated.first.minusDays(1)) && !date.isAfter(dated.last.plusDays(1))) {
                        return true;
                    }
                }
                return false;
            }
            return !last.plusDays(1).isBefore(other.first) && !other.last.plusDays(1).isBefore(first);
        }
    }
}
