package dev.workingmemory.entity;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The vocabulary of entity types and the word handling around it: splitting tool names and JSON keys
 * into words, singularizing, and mapping a word to a known type.
 *
 * <p>Immutable and thread-safe. No regular expressions: every method is a single pass over the characters.
 */
final class EntityTypeNames {

    /**
     * The built-in types (singular). The seed's types ({@code page, section, image, post, entry, collection,
     * media, task}) plus common resources of tool APIs.
     */
    static final List<String> BUILT_IN_TYPES = List.of(
            "page", "section", "image", "post", "entry", "collection", "media", "task",
            "file", "folder", "document", "article", "comment", "photo", "video", "asset",
            "user", "customer", "contact", "account", "team", "company",
            "product", "order", "invoice", "payment",
            "event", "message", "channel", "note",
            "project", "issue", "ticket", "repository", "branch",
            "tag", "category", "template", "component", "site");

    /** Words that end the part of a tool name that names its resource: {@code getPostsByUser} is about posts. */
    private static final Set<String> PREPOSITIONS = Set.of(
            "by", "for", "to", "in", "into", "of", "from", "with", "on", "at", "under");

    private static final Map<String, String> IRREGULAR_PLURALS = Map.of(
            "people", "person",
            "children", "child",
            "indices", "index",
            "media", "media",
            "data", "data",
            "series", "series",
            "species", "species",
            "news", "news");

    /** Singular and plural spelling (lower case) → type. */
    private final Map<String, String> known;

    EntityTypeNames(Collection<String> extraTypes) {
        Map<String, String> map = new HashMap<>();
        for (String type : BUILT_IN_TYPES) {
            register(map, type);
        }
        for (String type : extraTypes) {
            register(map, type);
        }
        this.known = Map.copyOf(map);
    }

    private static void register(Map<String, String> map, String type) {
        String lower = type.toLowerCase(Locale.ROOT);
        map.putIfAbsent(lower, type);
        map.putIfAbsent(plural(lower), type);
    }

    /**
     * The type a tool name talks about: the last known type word before the first preposition.
     * {@code cms_createPage} → page, {@code getImages} → image, {@code getPageSections} → section,
     * {@code getPostsByUser} → post. Words are split at {@code _ - . space} and at lower-to-upper case changes.
     *
     * @return the type, or {@code null} when no word of the name is a known type
     */
    String typeOfToolName(String toolName) {
        if (toolName == null || toolName.isEmpty()) {
            return null;
        }
        String found = null;
        int length = toolName.length();
        int i = 0;
        while (i < length) {
            while (i < length && isSeparator(toolName.charAt(i))) {
                i++;
            }
            if (i == length) {
                break;
            }
            int start = i++;
            while (i < length && !isBoundary(toolName, i)) {
                i++;
            }
            String word = toolName.substring(start, i).toLowerCase(Locale.ROOT);
            if (found != null && PREPOSITIONS.contains(word)) {
                return found;
            }
            String type = known.get(word);
            if (type != null) {
                found = type;
            }
        }
        return found;
    }

    /**
     * The known type a JSON key names, judged by its last word: {@code pages} → page,
     * {@code featured_image} → image, {@code blogPosts} → post.
     *
     * @return the type, or {@code null} when the key's last word is not a known type
     */
    String knownTypeOfKey(String key) {
        int end = key.length();
        while (end > 0 && isSeparator(key.charAt(end - 1))) {
            end--;
        }
        if (end == 0) {
            return null;
        }
        int start = end - 1;
        while (start > 0 && !isBoundary(key, start)) {
            start--;
        }
        if (isSeparator(key.charAt(start))) {
            start++;
        }
        return known.get(key.substring(start, end).toLowerCase(Locale.ROOT));
    }

    /**
     * A type made from any key: lower snake case, last word singularized. {@code lineItems} → line_item,
     * {@code Widgets} → widget, {@code event} → event.
     *
     * @return the type, or {@code null} when the key has no letters or digits
     */
    static String typeOfKey(String key) {
        StringBuilder out = new StringBuilder(key.length() + 4);
        char previous = 0;
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (isSeparator(c)) {
                if (out.length() > 0 && out.charAt(out.length() - 1) != '_') {
                    out.append('_');
                }
            } else if (Character.isUpperCase(c)) {
                if (out.length() > 0 && (Character.isLowerCase(previous) || Character.isDigit(previous))
                        && out.charAt(out.length() - 1) != '_') {
                    out.append('_');
                }
                out.append(Character.toLowerCase(c));
            } else if (Character.isLetterOrDigit(c)) {
                out.append(c);
            }
            previous = c;
        }
        while (out.length() > 0 && out.charAt(out.length() - 1) == '_') {
            out.setLength(out.length() - 1);
        }
        if (out.length() == 0) {
            return null;
        }
        return singularize(out.toString());
    }

    /**
     * A deliberately simple singularizer for lower case English words (applied to the end of the text):
     * a few irregular words (people, children, indices; media, data, series, news stay), then
     * {@code ies → y}, {@code sses → ss}, {@code xes → x}, {@code ches → ch}, {@code shes → sh},
     * and otherwise a trailing {@code s} is dropped unless the word ends in {@code ss}, {@code us} or {@code is}.
     * {@code entries → entry}, {@code addresses → address}, {@code boxes → box}, {@code images → image},
     * {@code status → status}.
     */
    static String singularize(String word) {
        int cut = word.lastIndexOf('_') + 1;
        String last = word.substring(cut);
        String irregular = IRREGULAR_PLURALS.get(last);
        if (irregular != null) {
            return word.substring(0, cut) + irregular;
        }
        int n = word.length() - cut;
        if (n > 3 && word.endsWith("ies")) {
            return word.substring(0, word.length() - 3) + "y";
        }
        if (n > 4 && (word.endsWith("sses") || word.endsWith("ches") || word.endsWith("shes"))) {
            return word.substring(0, word.length() - 2);
        }
        if (n > 3 && word.endsWith("xes")) {
            return word.substring(0, word.length() - 2);
        }
        if (n > 1 && word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us") && !word.endsWith("is")) {
            return word.substring(0, word.length() - 1);
        }
        return word;
    }

    private static String plural(String singular) {
        if (singular.equals("media")) {
            return singular;
        }
        if (singular.endsWith("y") && singular.length() > 1 && !isVowel(singular.charAt(singular.length() - 2))) {
            return singular.substring(0, singular.length() - 1) + "ies";
        }
        if (singular.endsWith("s") || singular.endsWith("x") || singular.endsWith("ch") || singular.endsWith("sh")) {
            return singular + "es";
        }
        return singular + "s";
    }

    private static boolean isVowel(char c) {
        return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u';
    }

    static boolean isSeparator(char c) {
        return c == '_' || c == '-' || c == '.' || c == ' ' || c == ':' || c == '/';
    }

    /** Whether a new word starts at {@code i} (or a separator sits there). */
    private static boolean isBoundary(String s, int i) {
        char c = s.charAt(i);
        if (isSeparator(c)) {
            return true;
        }
        char before = s.charAt(i - 1);
        return Character.isUpperCase(c) && (Character.isLowerCase(before) || Character.isDigit(before));
    }
}
