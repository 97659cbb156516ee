package dev.workingmemory.dream;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Takes the state document out of what a model answered. Thread-safe (stateless).
 * <ul>
 *   <li>The document starts at the title {@code # Working Memory State}; without one, at the first mood line or
 *   {@code ## } heading, and the title is added. What comes before (a preamble) is dropped.</li>
 *   <li>When a code fence opens right before that start, the document ends at the fence that closes it (fences of
 *   code blocks inside the document are paired first); what follows is dropped. An unclosed fence runs to the
 *   end.</li>
 *   <li>After the last section, a horizontal rule followed by prose only, and trailing paragraphs that read as a
 *   remark to the user ("Let me know…", "I have moved…", "This updated state…", "Changes:", …) are dropped. List
 *   lines are never dropped.</li>
 * </ul>
 * Pointer arrows ({@code ->}) are normalized by the parser, not here.
 */
final class AnswerCleaner {

    private static final Pattern RULE = Pattern.compile("^\\s*(?:-{3,}|\\*{3,}|_{3,})\\s*$");
    private static final Pattern STRUCTURE = Pattern.compile("^\\s*(?:[-*+•]\\s|\\d+[.)]\\s|#|>|\\||```|~~~)");
    private static final Pattern REMARK = Pattern.compile("^[*_\\s]*(?:let me know|i(?:'ve| have)?\\s+(?:updated|moved|"
            + "made|kept|added|removed|compressed|condensed|merged|rewrote|rewritten|reorganized|incorporated|integrated|"
            + "converted|turned|folded|dropped)|i hope|hope (?:this|that)|feel free|this (?:updated |new |revised )?"
            + "(?:state|document|version)|the (?:updated |new |revised )?(?:state|document)\\b|note:|notes:|changes:|"
            + "(?:summary of |key )?changes\\b|explanation|if you(?:'d| would)? like|would you like|do you want|"
            + "happy to|anything else)", Pattern.CASE_INSENSITIVE);

    private AnswerCleaner() {
    }

    static String clean(String answer) {
        if (answer == null) {
            return "";
        }
        List<String> lines = StateLines.lines(answer);
        int start = indexOf(lines, StateParser.TITLE);
        boolean titled = start >= 0;
        if (!titled) {
            start = firstStart(lines);
            if (start < 0) {
                return String.join("\n", lines).strip();
            }
        }
        int end = closingFence(lines, start);
        List<String> document = dropTrailingRemarks(new ArrayList<>(lines.subList(start, end)));
        String text = String.join("\n", document).strip();
        return titled ? text : StateDocument.TITLE + "\n\n" + text;
    }

    private static int indexOf(List<String> lines, Pattern pattern) {
        for (int i = 0; i < lines.size(); i++) {
            if (pattern.matcher(lines.get(i)).matches()) {
                return i;
            }
        }
        return -1;
    }

    private static int firstStart(List<String> lines) {
        for (int i = 0; i < lines.size(); i++) {
            if (StateLines.isH2(lines.get(i)) || StateParser.MOOD_LINE.matcher(lines.get(i)).matches()) {
                return i;
            }
        }
        return -1;
    }

    /** The index after the document: the closing fence of a fence opened right before {@code start}, or the end. */
    private static int closingFence(List<String> lines, int start) {
        int before = start - 1;
        while (before >= 0 && lines.get(before).isBlank()) {
            before--;
        }
        if (before < 0 || !StateLines.isFence(lines.get(before))) {
            return lines.size();
        }
        List<Integer> fences = new ArrayList<>();
        for (int i = start; i < lines.size(); i++) {
            if (StateLines.isFence(lines.get(i))) {
                fences.add(i);
            }
        }
        // inner code blocks come in pairs; an odd count means the last fence closes the outer one
        return fences.size() % 2 == 1 ? fences.get(fences.size() - 1) : lines.size();
    }

    private static List<String> dropTrailingRemarks(List<String> lines) {
        int lastHeading = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (StateLines.isH2(lines.get(i))) {
                lastHeading = i;
            }
        }
        if (lastHeading < 0) {
            return lines;
        }
        for (int i = lastHeading + 1; i < lines.size(); i++) {
            if (RULE.matcher(lines.get(i)).matches() && onlyProseAfter(lines, i + 1)) {
                lines = new ArrayList<>(lines.subList(0, i));
                break;
            }
        }
        for (int round = 0; round < 3; round++) {
            int end = lines.size() - 1;
            while (end > lastHeading && lines.get(end).isBlank()) {
                end--;
            }
            int start = end;
            while (start - 1 > lastHeading && !lines.get(start - 1).isBlank()
                    && !STRUCTURE.matcher(lines.get(start - 1)).find()) {
                start--;
            }
            if (end <= lastHeading || STRUCTURE.matcher(lines.get(start)).find()
                    || !REMARK.matcher(lines.get(start)).find()) {
                break;
            }
            lines = new ArrayList<>(lines.subList(0, start));
        }
        return lines;
    }

    private static boolean onlyProseAfter(List<String> lines, int from) {
        for (int i = from; i < lines.size(); i++) {
            if (!lines.get(i).isBlank() && STRUCTURE.matcher(lines.get(i)).find()) {
                return false;
            }
        }
        return true;
    }
}
