using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace AceMQ.Amqp.Conformance
{
    /// <summary>A line that is not exactly one JSON value (RFC 8259): the answer's id is null.</summary>
    public sealed class MalformedLineException : Exception
    {
        public MalformedLineException(string why) : base("line: " + why) { }
    }

    public enum JsonKind { Null, False, True, Number, String, Array, Object }

    /// <summary>A JSON value as the protocol needs it: numbers keep their text.</summary>
    public sealed class JsonValue
    {
        public JsonKind Kind { get; private set; }

        /// <summary>A string's value, or a number's text as written (echoed in ids).</summary>
        public string Text { get; private set; }

        /// <summary>A number's value, correctly rounded; an integer literal's is its integer's, so -0 is +0.0.</summary>
        public double Number { get; private set; }

        /// <summary>A number written without fraction or exponent (5, not 5.0 or 5e0).</summary>
        public bool IsIntegerLiteral { get; private set; }

        /// <summary>An integer literal within [-2^63, 2^63 - 1], whose value is Int64.</summary>
        public bool FitsInt64 { get; private set; }

        public long Int64 { get; private set; }

        public List<JsonValue> Items { get; private set; }

        public JsonObject Members { get; private set; }

        public static readonly JsonValue Null = new JsonValue { Kind = JsonKind.Null };
        public static readonly JsonValue True = new JsonValue { Kind = JsonKind.True };
        public static readonly JsonValue False = new JsonValue { Kind = JsonKind.False };

        public static JsonValue FromString(string s)
        {
            return new JsonValue { Kind = JsonKind.String, Text = s };
        }

        public static JsonValue FromNumber(string text, double value, bool isIntegerLiteral, bool fitsInt64, long int64)
        {
            return new JsonValue
            {
                Kind = JsonKind.Number, Text = text, Number = value, IsIntegerLiteral = isIntegerLiteral,
                FitsInt64 = fitsInt64, Int64 = int64,
            };
        }

        public static JsonValue FromArray(List<JsonValue> items)
        {
            return new JsonValue { Kind = JsonKind.Array, Items = items };
        }

        public static JsonValue FromObject(JsonObject members)
        {
            return new JsonValue { Kind = JsonKind.Object, Members = members };
        }

        public bool IsBoolean { get { return Kind == JsonKind.True || Kind == JsonKind.False; } }
    }

    /// <summary>An object's members; a duplicate key replaces the earlier value ("the last one counts").</summary>
    public sealed class JsonObject
    {
        private readonly Dictionary<string, JsonValue> values = new Dictionary<string, JsonValue>(StringComparer.Ordinal);
        private readonly List<string> keys = new List<string>();

        public void Set(string key, JsonValue value)
        {
            if (!values.ContainsKey(key)) keys.Add(key);
            values[key] = value;
        }

        public bool Has(string key)
        {
            return values.ContainsKey(key);
        }

        /// <summary>The member's value, or null (C# null: absent) when there is none.</summary>
        public JsonValue Get(string key)
        {
            JsonValue value;
            return values.TryGetValue(key, out value) ? value : null;
        }

        public IList<string> Keys { get { return keys; } }
    }

    /// <summary>
    /// A strict JSON reader for one request line, written for the protocol
    /// because Mono has no System.Text.Json and its number parsing is not
    /// correctly rounded. Everything RFC 8259 does not allow is malformed:
    /// a byte-order mark, a NUL or other control character outside the
    /// grammar, a lone surrogate, bare NaN or Infinity, a number beyond
    /// binary64, trailing bytes after the value other than JSON whitespace.
    /// </summary>
    public sealed class JsonReader
    {
        public const int MaxDepth = 32;

        // Throws on invalid UTF-8 (overlong forms, encoded surrogates, beyond
        // U+10FFFF, truncated sequences): the default UTF8Encoding replaces
        // them with U+FFFD and the line would pass. Mono 6.8's decoder was
        // checked on each of those (the unit test keeps checking).
        private static readonly UTF8Encoding StrictUtf8 = new UTF8Encoding(false, true);

        private readonly string s;
        private int i;

        private JsonReader(string text)
        {
            s = text;
        }

        /// <summary>Reads a request line (its bytes, without the LF) as exactly one JSON value.</summary>
        public static JsonValue ParseLine(byte[] line, int length)
        {
            string text;
            try
            {
                text = StrictUtf8.GetString(line, 0, length);
            }
            catch (ArgumentException)  // DecoderFallbackException
            {
                throw new MalformedLineException("invalid UTF-8");
            }
            return Parse(text);
        }

        /// <summary>Reads text as exactly one JSON value.</summary>
        public static JsonValue Parse(string text)
        {
            var reader = new JsonReader(text);
            reader.SkipSpace();
            if (reader.i == text.Length) throw new MalformedLineException("empty; a request is one JSON object");
            if (text[0] == '\uFEFF') throw new MalformedLineException("starts with a byte-order mark");
            JsonValue value = reader.Value(0);
            reader.SkipSpace();
            if (reader.i != text.Length) throw reader.Error("more than one JSON value, or bytes after it");
            return value;
        }

        private MalformedLineException Error(string what)
        {
            return new MalformedLineException(what + ", at column " + (i + 1).ToString(CultureInfo.InvariantCulture));
        }

        // JSON whitespace is exactly these four; a NUL, a form feed or a
        // non-breaking space is not (char.IsWhiteSpace would take some).
        private void SkipSpace()
        {
            while (i < s.Length && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n')) i++;
        }

        private JsonValue Value(int depth)
        {
            if (i >= s.Length) throw new MalformedLineException("ends inside a JSON value (truncated?)");
            char c = s[i];
            switch (c)
            {
                case '{': return ObjectValue(depth + 1);
                case '[': return ArrayValue(depth + 1);
                case '"': return JsonValue.FromString(StringValue());
                case 't': Literal("true"); return JsonValue.True;
                case 'f': Literal("false"); return JsonValue.False;
                case 'n': Literal("null"); return JsonValue.Null;
            }
            if (c == '-' || (c >= '0' && c <= '9')) return NumberValue();
            if (c == 'N' || c == 'I')
            {
                throw Error("bare NaN or Infinity; write the strings \"NaN\", \"Infinity\"");
            }
            throw Error("not JSON");
        }

        private void Literal(string word)
        {
            if (i + word.Length > s.Length || string.CompareOrdinal(s, i, word, 0, word.Length) != 0) throw Error("not JSON");
            i += word.Length;
        }

        private void Nest(int depth)
        {
            if (depth > MaxDepth) throw new MalformedLineException("arrays and objects nest deeper than the protocol's 32");
        }

        private JsonValue ObjectValue(int depth)
        {
            Nest(depth);
            i++;  // {
            var members = new JsonObject();
            SkipSpace();
            if (i < s.Length && s[i] == '}')
            {
                i++;
                return JsonValue.FromObject(members);
            }
            for (;;)
            {
                SkipSpace();
                if (i >= s.Length) throw new MalformedLineException("ends inside a JSON value (truncated?)");
                if (s[i] != '"') throw Error("not JSON: an object key must be a string");
                string key = StringValue();
                SkipSpace();
                if (i >= s.Length) throw new MalformedLineException("ends inside a JSON value (truncated?)");
                if (s[i] != ':') throw Error("not JSON: ':' expected");
                i++;
                SkipSpace();
                members.Set(key, Value(depth));
                SkipSpace();
                if (i >= s.Length) throw new MalformedLineException("ends inside a JSON value (truncated?)");
                if (s[i] == ',')
                {
                    i++;
                    continue;
                }
                if (s[i] == '}')
                {
                    i++;
                    return JsonValue.FromObject(members);
                }
                throw Error("not JSON: ',' or '}' expected");
            }
        }

        private JsonValue ArrayValue(int depth)
        {
            Nest(depth);
            i++;  // [
            var items = new List<JsonValue>();
            SkipSpace();
            if (i < s.Length && s[i] == ']')
            {
                i++;
                return JsonValue.FromArray(items);
            }
            for (;;)
            {
                SkipSpace();
                items.Add(Value(depth));
                SkipSpace();
                if (i >= s.Length) throw new MalformedLineException("ends inside a JSON value (truncated?)");
                if (s[i] == ',')
                {
                    i++;
                    continue;
                }
                if (s[i] == ']')
                {
                    i++;
                    return JsonValue.FromArray(items);
                }
                throw Error("not JSON: ',' or ']' expected");
            }
        }

        private string StringValue()
        {
            i++;  // "
            var text = new StringBuilder();
            for (;;)
            {
                if (i >= s.Length) throw new MalformedLineException("ends inside a JSON value (truncated?)");
                char c = s[i];
                if (c == '"')
                {
                    i++;
                    return text.ToString();
                }
                if (c < 0x20) throw Error("a string holds an unescaped control character");
                if (c != '\\')
                {
                    // Raw surrogates come in pairs: the strict decoder made them
                    // from one valid 4-byte sequence.
                    text.Append(c);
                    i++;
                    continue;
                }
                if (i + 1 >= s.Length) throw new MalformedLineException("ends inside a JSON value (truncated?)");
                char e = s[i + 1];
                i += 2;
                switch (e)
                {
                    case '"': text.Append('"'); break;
                    case '\\': text.Append('\\'); break;
                    case '/': text.Append('/'); break;
                    case 'b': text.Append('\b'); break;
                    case 'f': text.Append('\f'); break;
                    case 'n': text.Append('\n'); break;
                    case 'r': text.Append('\r'); break;
                    case 't': text.Append('\t'); break;
                    case 'u':
                    {
                        int unit = Hex4();
                        if (unit >= 0xDC00 && unit <= 0xDFFF)
                        {
                            throw Error("a string holds a lone surrogate (\\ud800 to \\udfff)");
                        }
                        if (unit >= 0xD800 && unit <= 0xDBFF)
                        {
                            // RFC 8259 text cannot hold a lone surrogate: a high
                            // half must be followed at once by an escaped low half.
                            if (i + 1 >= s.Length || s[i] != '\\' || s[i + 1] != 'u')
                            {
                                throw Error("a string holds a lone surrogate (\\ud800 to \\udfff)");
                            }
                            i += 2;
                            int low = Hex4();
                            if (low < 0xDC00 || low > 0xDFFF)
                            {
                                throw Error("a string holds a lone surrogate (\\ud800 to \\udfff)");
                            }
                            text.Append((char)unit).Append((char)low);
                            break;
                        }
                        text.Append((char)unit);
                        break;
                    }
                    default:
                        throw Error("a string holds an invalid escape");
                }
            }
        }

        private int Hex4()
        {
            if (i + 4 > s.Length) throw Error("a string holds an invalid escape");
            int unit = 0;
            for (int k = 0; k < 4; k++)
            {
                char c = s[i + k];
                int digit = c >= '0' && c <= '9' ? c - '0'
                          : c >= 'a' && c <= 'f' ? c - 'a' + 10
                          : c >= 'A' && c <= 'F' ? c - 'A' + 10
                          : -1;
                if (digit < 0) throw Error("a string holds an invalid escape");
                unit = unit * 16 + digit;
            }
            i += 4;
            return unit;
        }

        private static bool IsDigit(char c)
        {
            return c >= '0' && c <= '9';
        }

        private JsonValue NumberValue()
        {
            int start = i;
            if (s[i] == '-') i++;
            if (i < s.Length && s[i] == '0')
            {
                i++;
            }
            else if (i < s.Length && IsDigit(s[i]))
            {
                while (i < s.Length && IsDigit(s[i])) i++;
            }
            else
            {
                throw Error(i < s.Length && (s[i] == 'I' || s[i] == 'N')
                    ? "bare NaN or Infinity; write the strings \"NaN\", \"Infinity\""
                    : "a malformed number");
            }
            int integerEnd = i;
            bool isInteger = true;
            if (i < s.Length && s[i] == '.')
            {
                isInteger = false;
                i++;
                if (i >= s.Length || !IsDigit(s[i])) throw Error("a malformed number");
                while (i < s.Length && IsDigit(s[i])) i++;
            }
            if (i < s.Length && (s[i] == 'e' || s[i] == 'E'))
            {
                isInteger = false;
                i++;
                if (i < s.Length && (s[i] == '+' || s[i] == '-')) i++;
                if (i >= s.Length || !IsDigit(s[i])) throw Error("a malformed number");
                while (i < s.Length && IsDigit(s[i])) i++;
            }
            string text = s.Substring(start, i - start);
            double value;
            // A number literal beyond binary64 (1e400, or an integer of 309
            // digits) makes the line malformed. double.Parse on Mono throws
            // OverflowException there (and .NET Core gives Infinity); the
            // parser here says so itself.
            if (!DecimalParser.TryParse(text, 0, text.Length, out value))
            {
                throw new MalformedLineException("the number " + Clip(text) +
                    " is beyond binary64's range (write \"Infinity\" for an infinite value)");
            }
            bool fits = false;
            long int64 = 0;
            if (isInteger)
            {
                // The integer literal -0 is the integer zero, so +0.0 as a
                // number; the decimal reader (like double.Parse on .NET Core)
                // gives -0.0 for the text.
                if (value == 0) value = 0.0;
                fits = TryInt64(text, integerEnd - start, out int64);
            }
            return JsonValue.FromNumber(text, value, isInteger, fits, int64);
        }

        private static bool TryInt64(string text, int length, out long value)
        {
            value = 0;
            bool negative = text[0] == '-';
            int digitsStart = negative ? 1 : 0;
            if (length - digitsStart > 19) return false;
            ulong magnitude = 0;
            for (int k = digitsStart; k < length; k++) magnitude = magnitude * 10 + (ulong)(text[k] - '0');
            // 19 digits fit in a ulong (< 10^19 < 2^64).
            if (negative)
            {
                if (magnitude > 9223372036854775808UL) return false;
                value = unchecked(-(long)magnitude);
                return true;
            }
            if (magnitude > long.MaxValue) return false;
            value = (long)magnitude;
            return true;
        }

        public static string Clip(string text)
        {
            return text.Length > 60 ? text.Substring(0, 60) + "..." : text;
        }
    }
}
