package dev.workingmemory.slots;

import java.util.List;
import java.util.regex.Pattern;

/**
 * What a line of code looks like, to the rule of evidence ({@link CodingEvidence}'s "code": four lines of it or more, a
 * third of the text's lines, one led by a keyword). Each test reads one line, stripped of its indentation, and knows
 * nothing of the lines around it; the body of a Python block is told by {@link CodingEvidence} from the indentation
 * under a {@link #isBlockHeader header}. Thread-safe (stateless).
 */
final class CodeLines {

    private static final List<String> KEYWORDS = List.of("import ", "package ", "from ", "use ", "def ", "class ",
            "public ", "private ", "protected ", "static ", "final ", "return ", "func ", "fn ", "function ",
            "const ", "let ", "var ", "export ", "#include", "using ", "namespace ", "interface ", "struct ", "enum ",
            "impl ", "pub ", "async ", "await ", "module ", "require(", "if (", "for (", "while (", "} else");
    private static final List<String> DOCKER_INSTRUCTIONS = List.of("FROM ", "RUN ", "COPY ", "ADD ", "WORKDIR ",
            "CMD ", "ENTRYPOINT ", "ENV ", "EXPOSE ", "ARG ", "USER ", "LABEL ", "VOLUME ", "HEALTHCHECK ");
    private static final Pattern PINNED = Pattern.compile(
            "^[A-Za-z][\\w.-]*(?:\\[[\\w,-]+])?\\s*(?:==|>=|~=|<=)\\s*\\d[\\w.*]*\\s*$");

    private CodeLines() {
    }

    /**
     * A statement by its end: one ending with {@code ;}, a block opened after a header ({@code if (x) {},
     * {@code dependencies {}}) or closed, a Python header ending with {@code :}; never a quoted JSON member or a
     * markup tag.
     */
    static boolean isStatement(String stripped) {
        if (stripped.isEmpty() || isNeverCode(stripped)) {
            return false;
        }
        char last = stripped.charAt(stripped.length() - 1);
        if (last == ';') {
            return stripped.length() > 1 && !stripped.endsWith("&nbsp;");
        }
        if (last == '{') {
            return stripped.length() > 1 && (stripped.indexOf('(') >= 0 || Character.isLetter(stripped.charAt(0)));
        }
        if (stripped.equals("}") || stripped.startsWith("} ") || stripped.equals("};") || stripped.equals("})")) {
            return true;
        }
        return last == ':' && (stripped.startsWith("def ") || stripped.startsWith("class ") || stripped.startsWith("if ")
                || stripped.startsWith("for ") || stripped.startsWith("elif ") || stripped.equals("else:")
                || stripped.equals("try:") || stripped.startsWith("except") || stripped.startsWith("with ")
                || stripped.startsWith("while "));
    }

    /** A line that is never code: a quoted JSON member, a markup tag, an item of a list. */
    static boolean isNeverCode(String stripped) {
        return stripped.startsWith("\"") || stripped.startsWith("<") || stripped.startsWith("- ")
                || stripped.startsWith("* ");
    }

    /** A line led by a keyword of a programming language ({@code def }, {@code public }, ...) or an annotation. */
    static boolean startsWithKeyword(String stripped) {
        return Texts.startsWithAny(stripped, KEYWORDS)
                || stripped.startsWith("@") && stripped.length() > 1 && Character.isUpperCase(stripped.charAt(1));
    }

    /** A pinned requirement of Python's ({@code requests==2.31.0}, {@code django>=4.2}). */
    static boolean isPinnedRequirement(String stripped) {
        char first = stripped.charAt(0);
        return (first >= 'a' && first <= 'z' || first >= 'A' && first <= 'Z') && stripped.indexOf('=') > 0
                && PINNED.matcher(stripped).matches();
    }

    /**
     * A Python header, which a block of lines indented deeper follows: {@code def total(price):}, {@code class
     * Cart(Base):}, {@code for item in items:}, {@code if code == "X":}, {@code with open(path) as f:}, {@code else:}.
     * A line of prose that ends in a colon ("for 4 people (serves 4):", "if you can come:") has none of a statement's
     * signs: a name called or dotted, a comparison, a loop's variables.
     */
    static boolean isBlockHeader(String stripped) {
        if (!stripped.endsWith(":")) {
            return false;
        }
        if (stripped.equals("else:") || stripped.equals("try:") || stripped.equals("finally:")) {
            return true;
        }
        if (stripped.startsWith("def ")) {
            int end = 4;
            while (end < stripped.length() && Character.isJavaIdentifierPart(stripped.charAt(end))) {
                end++;
            }
            return end > 4 && end < stripped.length() && stripped.charAt(end) == '(';
        }
        if (stripped.startsWith("class ")) {
            return stripped.length() > 7 && Character.isUpperCase(stripped.charAt(6));
        }
        if (stripped.startsWith("for ")) {
            int in = stripped.indexOf(" in ");
            return in > 4 && isLoopVariables(stripped, 4, in);
        }
        return (stripped.startsWith("if ") || stripped.startsWith("elif ") || stripped.startsWith("while ")
                || stripped.startsWith("with ")) && hasStatementSign(stripped);
    }

    /** {@code item}, {@code i, item}, {@code (key, value)}: names, commas and parentheses. */
    private static boolean isLoopVariables(String text, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (!(Character.isJavaIdentifierPart(c) || c == ',' || c == '(' || c == ')'
                    || c == ' ' && text.charAt(i - 1) == ',')) {
                return false;
            }
        }
        return true;
    }

    /**
     * A comparison ({@code ==}, {@code !=}, {@code <=}, {@code >=}) or a name called or dotted ({@code len(},
     * {@code cart.items}).
     */
    private static boolean hasStatementSign(String text) {
        if (text.contains("==") || text.contains("!=") || text.contains("<=") || text.contains(">=")) {
            return true;
        }
        for (int i = 1; i + 1 < text.length(); i++) {
            char c = text.charAt(i);
            char before = text.charAt(i - 1);
            if ((c == '(' || c == '.' && Character.isLetter(text.charAt(i + 1)))
                    && (Character.isLetterOrDigit(before) || before == '_')) {
                return true;
            }
        }
        return false;
    }

    /** A Dockerfile's instruction: its word in capitals, then its arguments ({@code RUN npm ci}). */
    static boolean isDockerInstruction(String stripped) {
        return stripped.length() > 4 && stripped.charAt(0) >= 'A' && stripped.charAt(0) <= 'W'
                && Character.isUpperCase(stripped.charAt(1)) && Texts.startsWithAny(stripped, DOCKER_INSTRUCTIONS);
    }

    /**
     * A Dockerfile's {@code FROM} of an image with a tag, a registry or a digest ({@code FROM node:20-alpine AS build},
     * {@code FROM ghcr.io/acme/base}): SQL's {@code FROM orders} names no such thing.
     */
    static boolean isBaseImage(String stripped) {
        if (!stripped.startsWith("FROM ")) {
            return false;
        }
        int end = 5;
        boolean qualified = false;
        while (end < stripped.length() && stripped.charAt(end) != ' ') {
            char c = stripped.charAt(end++);
            if (c == ':' || c == '/' || c == '@') {
                qualified = true;
            } else if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_')) {
                return false;
            }
        }
        return qualified && (end == stripped.length() || stripped.regionMatches(true, end, " AS ", 0, 4));
    }
}
