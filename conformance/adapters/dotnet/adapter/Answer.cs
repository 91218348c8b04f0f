using System;
using System.Globalization;
using System.IO;

namespace AceMQ.Amqp.Conformance
{
    /// <summary>
    /// One answer line, built as ASCII bytes: the protocol's answers are ASCII
    /// (anything else escaped), and a sample answer is 1.3 MB, so it is
    /// written straight into a reusable buffer, not through strings.
    /// </summary>
    public sealed class Answer
    {
        private byte[] bytes = new byte[1 << 16];
        private int length;

        public int Length { get { return length; } }

        public void Clear()
        {
            length = 0;
        }

        private void Room(int more)
        {
            if (length + more <= bytes.Length) return;
            int size = bytes.Length;
            while (size < length + more) size *= 2;
            Array.Resize(ref bytes, size);
        }

        /// <summary>Text the adapter itself made, ASCII by construction.</summary>
        public Answer Ascii(string text)
        {
            Room(text.Length);
            for (int k = 0; k < text.Length; k++) bytes[length++] = (byte)text[k];
            return this;
        }

        /// <summary>
        /// A binary64 in shortest round-trip form (DoubleText: not
        /// ToString("R"), which on Mono is neither shortest nor always
        /// round-trip and writes -0.0 as "0"); non-finite values as the
        /// strings "Infinity", "-Infinity", "NaN".
        /// </summary>
        public Answer Number(double x)
        {
            if (double.IsNaN(x)) return Ascii("\"NaN\"");
            if (double.IsPositiveInfinity(x)) return Ascii("\"Infinity\"");
            if (double.IsNegativeInfinity(x)) return Ascii("\"-Infinity\"");
            Room(DoubleText.MaxLength);
            length = DoubleText.WriteFinite(x, bytes, length);
            return this;
        }

        /// <summary>A number, or null for "give up".</summary>
        public Answer Delay(double? x)
        {
            return x.HasValue ? Number(x.Value) : Ascii("null");
        }

        /// <summary>
        /// text as a JSON string in ASCII: quote, backslash and everything
        /// outside printable ASCII escaped as \uXXXX (UTF-16 units, so a
        /// character beyond U+FFFF is its surrogate pair).
        /// </summary>
        public Answer String(string text)
        {
            Room(text.Length * 6 + 2);
            bytes[length++] = (byte)'"';
            foreach (char c in text)
            {
                if (c == '"' || c == '\\')
                {
                    bytes[length++] = (byte)'\\';
                    bytes[length++] = (byte)c;
                }
                else if (c >= 0x20 && c < 0x7F)
                {
                    bytes[length++] = (byte)c;
                }
                else
                {
                    string hex = ((int)c).ToString("x4", CultureInfo.InvariantCulture);
                    bytes[length++] = (byte)'\\';
                    bytes[length++] = (byte)'u';
                    for (int k = 0; k < 4; k++) bytes[length++] = (byte)hex[k];
                }
            }
            bytes[length++] = (byte)'"';
            return this;
        }

        /// <summary>
        /// A decoded value written back as ASCII JSON, numbers as their text,
        /// so an id comes back with the value it was sent with.
        /// </summary>
        public Answer Json(JsonValue value)
        {
            switch (value.Kind)
            {
                case JsonKind.Null: return Ascii("null");
                case JsonKind.True: return Ascii("true");
                case JsonKind.False: return Ascii("false");
                case JsonKind.Number: return Ascii(value.Text);
                case JsonKind.String: return String(value.Text);
                case JsonKind.Array:
                    Ascii("[");
                    for (int k = 0; k < value.Items.Count; k++)
                    {
                        if (k > 0) Ascii(",");
                        Json(value.Items[k]);
                    }
                    return Ascii("]");
                default:
                    Ascii("{");
                    bool first = true;
                    foreach (string key in value.Members.Keys)
                    {
                        if (!first) Ascii(",");
                        first = false;
                        String(key).Ascii(":").Json(value.Members.Get(key));
                    }
                    return Ascii("}");
            }
        }

        /// <summary>The answer, its LF added, written in one piece and flushed.</summary>
        public void WriteLineTo(Stream output)
        {
            Room(1);
            bytes[length++] = (byte)'\n';
            output.Write(bytes, 0, length);
            output.Flush();
        }

        public override string ToString()
        {
            var chars = new char[length];
            for (int k = 0; k < length; k++) chars[k] = (char)bytes[k];
            return new string(chars);
        }

        /// <summary>A value as an error message quotes it: compact JSON, cut at 60 characters.</summary>
        public static string Quote(JsonValue value)
        {
            var text = new Answer();
            text.Json(value);
            return JsonReader.Clip(text.ToString());
        }
    }
}
