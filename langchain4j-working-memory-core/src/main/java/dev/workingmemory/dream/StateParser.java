package dev.workingmemory.dream;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a state document (see {@link StateDocument} for what it tolerates). Thread-safe (stateless).
 */
final class StateParser {

    // possessive where two quantifiers could share a run: a dream's answer or a note it was given is read in linear
    // steps however it is built (AdversarialStateLinesTest)
    static final Pattern TITLE = Pattern.compile("^\\s{0,3}#\\s++working\\s++memory\\s++state\\s*+#*+\\s*+$",
            Pattern.CASE_INSENSITIVE);
    /** Its value, group 1, ends with the emphasis and white space {@link #moodValue} takes off. */
    static final Pattern MOOD_LINE = Pattern.compile("^[\\s>]*+[_*]*+\\s*+last\\s++dream\\s*+[_*]*+:\\s*+(.*)$",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern MOOD_PART = Pattern.compile("^\\s*[_*]*mood[_*]*\\s*:\\s*(.*)$", Pattern.CASE_INSENSITIVE);
    private static final Pattern NUMBERING = Pattern.compile("^(?:\\d+[.)]|[IVX]+\\.)\\s+");
    static final Pattern SUFFIX = Pattern.compile("^(.*?)(?<!\\s)\\s*+(\\([^()]*+\\))$");

    private StateParser() {
    }

    static StateDocument parse(String markdown, StateSchema schema) {
        List<String> lines = StateLines.lines(markdown);
        boolean[] structural = outsideFences(lines);
        int title = -1;
        for (int i = 0; i < lines.size() && title < 0; i++) {
            if (structural[i] && TITLE.matcher(lines.get(i)).matches()) {
                title = i;
            }
        }
        int start = title + 1;
        if (title < 0) { // no title: the document starts at the mood line or the first section
            start = lines.size();
            for (int i = 0; i < lines.size(); i++) {
                if (structural[i] && (StateLines.isH2(lines.get(i)) || MOOD_LINE.matcher(lines.get(i)).matches())) {
                    start = i;
                    break;
                }
            }
        }

        StateDocument.Builder builder = StateDocument.builder(schema);
        List<String> intro = new ArrayList<>();
        boolean moodRead = false;
        String heading = null;
        List<String> body = new ArrayList<>();
        for (int i = start; i < lines.size(); i++) {
            String line = lines.get(i);
            if (structural[i] && StateLines.isH2(line)) {
                if (heading != null) {
                    builder.section(sectionName(heading), sectionSuffix(heading), String.join("\n", body));
                }
                heading = headingText(line);
                body.clear();
            } else if (heading != null) {
                body.add(line);
            } else if (!moodRead && structural[i] && readMoodLine(line, builder)) {
                moodRead = true;
            } else {
                intro.add(line);
            }
        }
        if (heading != null) {
            builder.section(sectionName(heading), sectionSuffix(heading), String.join("\n", body));
        }
        return builder.intro(String.join("\n", intro)).build();
    }

    /** Which lines are outside fenced code blocks (only those can be headings). */
    private static boolean[] outsideFences(List<String> lines) {
        boolean[] outside = new boolean[lines.size()];
        boolean inFence = false;
        for (int i = 0; i < lines.size(); i++) {
            if (StateLines.isFence(lines.get(i))) {
                inFence = !inFence;
                outside[i] = false;
            } else {
                outside[i] = !inFence;
            }
        }
        return outside;
    }

    private static boolean readMoodLine(String line, StateDocument.Builder builder) {
        Matcher m = MOOD_LINE.matcher(line);
        if (!m.matches()) {
            return false;
        }
        String[] parts = moodValue(m.group(1)).split("\\|");
        builder.lastDream(time(parts[0].strip()));
        for (int i = 1; i < parts.length; i++) {
            Matcher mood = MOOD_PART.matcher(parts[i]);
            if (mood.matches() && !mood.group(1).isBlank()) {
                builder.mood(mood.group(1));
            }
        }
        return true;
    }

    /** A time as people and models write it; {@code null} for "never" or anything unreadable. */
    static Instant time(String text) {
        String t = text.replaceAll("^[_*`]+|[_*`]+$", "").strip();
        try {
            return Instant.parse(t);
        } catch (DateTimeParseException ignored) {
            // try the other forms
        }
        try {
            return OffsetDateTime.parse(t.replace(' ', 'T')).toInstant();
        } catch (DateTimeParseException ignored) {
            // try the other forms
        }
        try {
            return LocalDateTime.parse(t.replace(' ', 'T')).toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException ignored) {
            // try the other forms
        }
        try {
            return LocalDate.parse(t).atStartOfDay().toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException ignored) {
            return null;
        }
    }

    /** The text of a {@code ## } heading: no hashes, numbering, bold or trailing colon. */
    private static String headingText(String line) {
        String text = line.replaceFirst("^##\\s*", "").replaceFirst("\\s*#+\\s*$", "");
        text = NUMBERING.matcher(bareHeading(text)).replaceFirst("");
        text = bareHeading(text);
        return text.isEmpty() ? "Untitled" : text;
    }

    /** Without emphasis markers and a colon at the ends: {@code **The Bond:**} → {@code The Bond}. */
    private static String bareHeading(String text) {
        String bare = text.strip();
        String before;
        do {
            before = bare;
            bare = bare.replaceAll("^[*_]+|[*_]+$", "").strip();
            if (bare.endsWith(":")) {
                bare = bare.substring(0, bare.length() - 1).strip();
            }
        } while (!bare.equals(before));
        return bare;
    }

    /** A mood line's value without the emphasis and white space it ends with. */
    private static String moodValue(String value) {
        int end = value.length();
        while (end > 0 && (value.charAt(end - 1) == '_' || value.charAt(end - 1) == '*'
                || Character.isWhitespace(value.charAt(end - 1)))) {
            end--;
        }
        return value.substring(0, end);
    }

    /** The name of a heading: without its suffix in parentheses. */
    static String sectionName(String heading) {
        Matcher m = SUFFIX.matcher(heading.strip());
        String name = m.matches() && !m.group(1).isBlank() ? m.group(1) : heading.strip();
        return name.replaceAll("^[*_]+|[*_]+$", "").strip();
    }

    /** The suffix in parentheses of a heading, or {@code ""}. */
    static String sectionSuffix(String heading) {
        Matcher m = SUFFIX.matcher(heading.strip());
        return m.matches() && !m.group(1).isBlank() ? m.group(2) : "";
    }
}
