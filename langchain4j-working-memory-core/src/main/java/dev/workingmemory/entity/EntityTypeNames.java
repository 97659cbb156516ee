package dev.workingmemory.entity;

import dev.workingmemory.internal.EnglishNouns;

import java.util.ArrayList;
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
 * <p>Immutable and thread-safe. No regular expressions: every method is a single pass over the characters or words.
 */
final class EntityTypeNames {

    /**
     * The built-in types (singular). The seed's types ({@code page, section, image, post, entry, collection,
     * media, task}), common resources of tool APIs, and the things of common service domains (places to eat, stay
     * and visit, media, travel, appointments, homes and cars).
     */
    static final List<String> BUILT_IN_TYPES = List.of(
            "page", "section", "image", "post", "entry", "collection", "media", "task",
            "file", "folder", "document", "article", "comment", "photo", "video", "asset",
            "user", "customer", "contact", "account", "team", "company",
            "product", "order", "invoice", "payment", "transaction", "subscription", "plan",
            "event", "message", "channel", "note", "alarm", "reminder",
            "project", "issue", "ticket", "repository", "branch", "board", "card",
            "tag", "category", "template", "component", "site",
            "restaurant", "hotel", "room", "attraction", "venue", "theater", "theatre", "place", "business",
            "movie", "song", "track", "album", "artist", "playlist", "podcast", "episode", "book", "recipe", "course",
            "flight", "trip", "property", "apartment", "car",
            "doctor", "dentist", "therapist", "stylist", "salon", "job", "country");

    /** Short forms of known types, for keys and tool names ({@code repos}, {@code getDoc}). */
    private static final Map<String, String> ABBREVIATIONS = Map.of(
            "doc", "document", "repo", "repository", "img", "image", "pic", "photo", "msg", "message");

    /**
     * Verbs that start tool names ({@code FindRestaurants}, {@code get_weather}, {@code BookAppointment}): the first
     * verb is not a type word while no type word came before it and another word follows, so {@code BookAppointment}
     * is about appointments, not books, and {@code post_message} about messages.
     */
    static final Set<String> VERBS = Set.of(
            "get", "find", "search", "lookup", "look", "list", "fetch", "query", "retrieve", "read", "load", "browse",
            "discover", "explore", "locate", "view", "show", "describe", "count", "check", "track",
            "create", "add", "insert", "make", "new", "update", "edit", "modify", "patch", "set", "put", "upsert",
            "save", "delete", "remove", "cancel", "book", "reserve", "buy", "purchase", "rent", "order", "pay",
            "play", "pause", "resume", "stop", "start", "schedule", "request", "send", "share", "transfer", "post",
            "submit", "confirm", "download", "upload", "open", "suggest", "recommend", "rate", "generate", "compute",
            "calculate", "estimate", "run", "call");

    /**
     * Types that name something about the thing before them in a tool name rather than a thing of their own:
     * {@code BuyEventTickets} is about an event. Alone they stay types ({@code getTicket} → ticket).
     */
    private static final Set<String> ASPECTS = Set.of("ticket");

    /** Words that end a tool name without naming its resource: {@code GetCarsAvailable} is about cars. */
    private static final Set<String> TRAILING_WORDS = Set.of(
            "available", "detail", "details", "info", "information", "now", "today");

    /**
     * Types of reports and measurements, not things ({@code get_weather}, {@code CheckBalance},
     * {@code GetAvailableTimes}): a tool of such a type yields no entities, and no record of such a type is one.
     */
    static final Set<String> REPORT_TYPES = Set.of(
            "weather", "forecast", "balance", "rate", "status", "availability", "slot", "time", "count", "stat",
            "statistic", "metric", "usage", "health", "fare", "estimate");

    /** Words that end the part of a tool name that names its resource: {@code getPostsByUser} is about posts. */
    private static final Set<String> PREPOSITIONS = Set.of(
            "by", "for", "to", "in", "into", "of", "from", "with", "on", "at", "under");


    /** Singular and plural spelling (lower case) → type. */
    private final Map<String, String> known;
    /** The known types themselves. */
    private final Set<String> knownTypes;

    EntityTypeNames(Collection<String> extraTypes) {
        Map<String, String> map = new HashMap<>();
        for (String type : BUILT_IN_TYPES) {
            register(map, type);
        }
        for (String type : extraTypes) {
            register(map, type);
        }
        ABBREVIATIONS.forEach((shortForm, type) -> {
            map.putIfAbsent(shortForm, type);
            map.putIfAbsent(EnglishNouns.plural(shortForm), type);
        });
        this.known = Map.copyOf(map);
        this.knownTypes = Set.copyOf(map.values());
    }

    private static void register(Map<String, String> map, String type) {
        String lower = type.toLowerCase(Locale.ROOT);
        map.putIfAbsent(lower, type);
        map.putIfAbsent(EnglishNouns.plural(lower), type);
    }

    /**
     * The type a tool is about, and whether it is a known type.
     *
     * @param type  the type, never blank
     * @param known whether it is a known type (built-in or configured) rather than a word taken from the name
     */
    record ToolType(String type, boolean known) {
    }

    /**
     * The type a tool name talks about. Words are split at {@code _ - . space} and at lower-to-upper case changes.
     * <ol>
     *   <li>The last known type word before the first preposition that follows one: {@code cms_createPage} → page,
     *       {@code getImages} → image, {@code getPageSections} → section, {@code getPostsByUser} → post,
     *       {@code FindRestaurants} → restaurant. The first {@link #VERBS verb} is not a type word while another word
     *       follows ({@code BookAppointment}, but {@code getBookDetails} → book), and an aspect word after a type does not replace it
     *       ({@code BuyEventTickets} → event).</li>
     *   <li>Otherwise, the word before the first preposition (or the end) after the first verb, skipping a trailing
     *       word like {@code available} or {@code details}, singularized: {@code get_weather} → weather,
     *       {@code GetRide} → ride, {@code FindHomeByArea} → home, {@code FindTrains} → train. This type is not a
     *       known one ({@link ToolType#known()} is false).</li>
     * </ol>
     *
     * @return the type, or {@code null} when the name holds neither a known type word nor a word after a verb
     */
    ToolType typeOfToolName(String toolName) {
        if (toolName == null || toolName.isEmpty()) {
            return null;
        }
        List<String> words = words(toolName);
        String found = null;
        boolean verbSeen = false;
        for (int i = 0; i < words.size(); i++) {
            String word = words.get(i);
            if (found != null && PREPOSITIONS.contains(word)) {
                break;
            }
            if (!verbSeen && found == null && i < words.size() - 1 && VERBS.contains(word)) {
                verbSeen = true; // the verb; a verb-like word after it is its object: getBookDetails
                continue;
            }
            String type = known.get(word);
            if (type != null && (found == null || !ASPECTS.contains(type))) {
                found = type;
            }
        }
        if (found != null) {
            return new ToolType(found, true);
        }
        return wordAfterVerb(words);
    }

    private static ToolType wordAfterVerb(List<String> words) {
        int verb = 0;
        while (verb < words.size() - 1 && !VERBS.contains(words.get(verb))) {
            verb++;
        }
        if (verb >= words.size() - 1) {
            return null;
        }
        int end = verb + 1;
        while (end < words.size() && !PREPOSITIONS.contains(words.get(end))) {
            end++;
        }
        while (end > verb + 1 && TRAILING_WORDS.contains(words.get(end - 1))) {
            end--;
        }
        if (end == verb + 1) {
            return null;
        }
        String word = words.get(end - 1);
        for (int i = 0; i < word.length(); i++) {
            if (!Character.isLetter(word.charAt(i))) {
                return null;
            }
        }
        return new ToolType(EnglishNouns.singular(word), false);
    }

    /** The words of a tool name or key, lower case: split at separators and at lower-to-upper case changes. */
    static List<String> words(String name) {
        List<String> words = new ArrayList<>(4);
        int length = name.length();
        int i = 0;
        while (i < length) {
            while (i < length && isSeparator(name.charAt(i))) {
                i++;
            }
            if (i == length) {
                break;
            }
            int start = i++;
            while (i < length && !isBoundary(name, i)) {
                i++;
            }
            words.add(name.substring(start, i).toLowerCase(Locale.ROOT));
        }
        return words;
    }

    /** Whether {@code type} is a known type (built-in, configured or an abbreviation of one). */
    boolean isKnown(String type) {
        return knownTypes.contains(type);
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
        String form = snakeCase(key);
        return form == null ? null : EnglishNouns.singular(form);
    }

    /**
     * A key in lower snake case, as the block spells a type: {@code lineItems} → line_items, {@code Widgets} →
     * widgets, {@code verbindungen} as it is.
     *
     * @return the key so spelled, or {@code null} when it has no letters or digits
     */
    static String snakeCase(String key) {
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
        return out.length() == 0 ? null : out.toString();
    }

    /**
     * The type a record declares for itself in {@code __typename} (GraphQL), {@code @type} (JSON-LD) or
     * {@code object} (Stripe, Notion): the part after the last {@code : / #}, made a type like a key
     * ({@code Restaurant} → restaurant, {@code payment_intent}, {@code http://schema.org/Hotel} → hotel).
     *
     * @return the type, or {@code null} when the value is longer than 64 characters or not a name of letters,
     * digits, {@code _ - .}
     */
    static String typeOfDeclared(String value) {
        if (value.length() > 64) {
            return null;
        }
        int start = Math.max(value.lastIndexOf(':'), Math.max(value.lastIndexOf('/'), value.lastIndexOf('#'))) + 1;
        if (start == value.length()) {
            return null;
        }
        for (int i = start; i < value.length(); i++) {
            char c = value.charAt(i);
            if (!Character.isLetterOrDigit(c) && c != '_' && c != '-' && c != '.') {
                return null;
            }
        }
        return typeOfKey(value.substring(start));
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
