// Calendar files as Google Calendar, Thunderbird, Apple Calendar and Outlook write them
// (hand-made, in each program's own order and style; folded at 75 octets like the originals).
// Kept with LF line ends in the source; `crlf` gives the CRLF the programs really write.

package func crlf(_ text: String) -> String { text.replacingOccurrences(of: "\n", with: "\r\n") + "\r\n" }

package enum ICalendarFixtures {
    /// How a Google Calendar export begins, up to its zone.
    private static let googleHeader = """
        BEGIN:VCALENDAR
        PRODID:-//Google Inc//Google Calendar 70.9054//EN
        VERSION:2.0
        CALSCALE:GREGORIAN
        METHOD:PUBLISH
        X-WR-CALNAME:Uroda
        X-WR-TIMEZONE:Europe/Warsaw
        """

    /// Google's VTIMEZONE for Europe/Warsaw (the RRULE parts in its order).
    private static let googleWarsawZone = #"""
        BEGIN:VTIMEZONE
        TZID:Europe/Warsaw
        X-LIC-LOCATION:Europe/Warsaw
        BEGIN:DAYLIGHT
        TZOFFSETFROM:+0100
        TZOFFSETTO:+0200
        TZNAME:CEST
        DTSTART:19700329T020000
        RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU
        END:DAYLIGHT
        BEGIN:STANDARD
        TZOFFSETFROM:+0200
        TZOFFSETTO:+0100
        TZNAME:CET
        DTSTART:19701025T030000
        RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
        END:STANDARD
        END:VTIMEZONE
        """#

    /// Google Calendar export: X-WR-* headers, VTIMEZONE, a weekly-by-6 series with one moved
    /// occurrence (RECURRENCE-ID), DISPLAY and EMAIL alarms, an all-day day off.
    package static let google = crlf(
        #"""
        \#(googleHeader)
        X-WR-CALDESC:Fryzjer\, manicure\, kosmetyczka – wszystko w jednym miejscu
        \#(googleWarsawZone)
        BEGIN:VEVENT
        DTSTART;TZID=Europe/Warsaw:20261201T140000
        DTEND;TZID=Europe/Warsaw:20261201T153000
        RRULE:FREQ=WEEKLY;INTERVAL=6
        DTSTAMP:20261123T091512Z
        UID:4l1pq2v0s8d3m5k7j9h1g3f5e7@google.com
        CREATED:20261120T180344Z
        DESCRIPTION:Strzyżenie i koloryzacja u Pani Łucji.\nZadzwonić dzień wcz
         eśniej\, żeby potwierdzić.\nCena ok. 180 zł\; zaliczka 50 zł.
        LAST-MODIFIED:20261120T180512Z
        LOCATION:Salon Fryzjerski Łucja\, ul. Żurawia 12\, 00-503 Warszawa\, Pols
         ka
        SEQUENCE:0
        STATUS:CONFIRMED
        SUMMARY:Fryzjer – koloryzacja
        TRANSP:OPAQUE
        BEGIN:VALARM
        ACTION:DISPLAY
        DESCRIPTION:This is an event reminder
        TRIGGER:-P0DT0H30M0S
        END:VALARM
        END:VEVENT
        BEGIN:VEVENT
        DTSTART;TZID=Europe/Warsaw:20270115T160000
        DTEND;TZID=Europe/Warsaw:20270115T173000
        DTSTAMP:20261123T091512Z
        UID:4l1pq2v0s8d3m5k7j9h1g3f5e7@google.com
        RECURRENCE-ID;TZID=Europe/Warsaw:20270112T140000
        CREATED:20261120T180344Z
        DESCRIPTION:Przeniesione na piątek.
        LAST-MODIFIED:20261122T101010Z
        LOCATION:Salon Fryzjerski Łucja\, ul. Żurawia 12\, 00-503 Warszawa\, Pols
         ka
        SEQUENCE:1
        STATUS:CONFIRMED
        SUMMARY:Fryzjer – koloryzacja
        TRANSP:OPAQUE
        BEGIN:VALARM
        ACTION:DISPLAY
        DESCRIPTION:This is an event reminder
        TRIGGER:-P0DT0H30M0S
        END:VALARM
        END:VEVENT
        BEGIN:VEVENT
        DTSTART;TZID=Europe/Warsaw:20270610T090000
        DTEND;TZID=Europe/Warsaw:20270610T094500
        DTSTAMP:20261123T091512Z
        UID:0a9b8c7d6e5f4g3h2i1j0k9l8m@google.com
        CREATED:20261119T200000Z
        DESCRIPTION:
        LAST-MODIFIED:20261119T200000Z
        LOCATION:Klinika Laser Med\, al. Jana Pawła II 27\, Warszawa
        SEQUENCE:0
        STATUS:TENTATIVE
        SUMMARY:Depilacja laserowa – 3. zabieg
        TRANSP:OPAQUE
        BEGIN:VALARM
        ACTION:EMAIL
        DESCRIPTION:This is an event reminder
        SUMMARY:Alarm notification
        ATTENDEE:mailto:ania.kowalska@gmail.com
        TRIGGER:-P1D
        END:VALARM
        BEGIN:VALARM
        ACTION:DISPLAY
        DESCRIPTION:This is an event reminder
        TRIGGER:-P0DT2H0M0S
        END:VALARM
        END:VEVENT
        BEGIN:VEVENT
        DTSTART;VALUE=DATE:20261224
        DTEND;VALUE=DATE:20261225
        DTSTAMP:20261123T091512Z
        UID:7h6g5f4e3d2c1b0a9z8y7x6w5v@google.com
        CREATED:20261101T090000Z
        DESCRIPTION:
        LAST-MODIFIED:20261101T090000Z
        LOCATION:
        SEQUENCE:0
        STATUS:CONFIRMED
        SUMMARY:Wigilia – salon zamknięty
        TRANSP:TRANSPARENT
        END:VEVENT
        END:VCALENDAR
        """#)

    /// Thunderbird / Lightning: X-MOZ-* properties, five VALARMs (relative, absolute, RELATED=END,
    /// one after the start), EXDATE lists with TZID, an all-day weekend across the DST change, a VTODO.
    package static let thunderbird = crlf(
        #"""
        BEGIN:VCALENDAR
        PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN
        VERSION:2.0
        BEGIN:VTIMEZONE
        TZID:Europe/Warsaw
        X-LIC-LOCATION:Europe/Warsaw
        BEGIN:DAYLIGHT
        TZOFFSETFROM:+0100
        TZOFFSETTO:+0200
        TZNAME:CEST
        DTSTART:19700329T020000
        RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3
        END:DAYLIGHT
        BEGIN:STANDARD
        TZOFFSETFROM:+0200
        TZOFFSETTO:+0100
        TZNAME:CET
        DTSTART:19701025T030000
        RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10
        END:STANDARD
        END:VTIMEZONE
        BEGIN:VEVENT
        CREATED:20261101T101010Z
        LAST-MODIFIED:20261102T080000Z
        DTSTAMP:20261102T080000Z
        UID:7c1f2e3a-5b6d-4e8f-9a0b-1c2d3e4f5a6b
        SUMMARY:Manicure hybrydowy
        STATUS:TENTATIVE
        RRULE:FREQ=WEEKLY;INTERVAL=3
        EXDATE;TZID=Europe/Warsaw:20261124T170000
        EXDATE;TZID=Europe/Warsaw:20261215T170000,20270105T170000
        CATEGORIES:Paznokcie,Uroda
        DTSTART;TZID=Europe/Warsaw:20261103T170000
        DTEND;TZID=Europe/Warsaw:20261103T180000
        CLASS:PUBLIC
        LOCATION:Studio Paznokci Ewa\, ul. Długa 5\, Gdańsk
        DESCRIPTION:Kolor: nude albo bordo.\nZabrać kartę stałego klienta (10% r
         abatu).
        X-MOZ-GENERATION:3
        X-MOZ-LASTACK:20261103T153000Z
        X-MOZ-SEND-INVITATIONS:FALSE
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER;VALUE=DURATION:-P1D
        DESCRIPTION:Default Mozilla Description
        END:VALARM
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER;VALUE=DURATION:-PT2H
        DESCRIPTION:Default Mozilla Description
        END:VALARM
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER;VALUE=DATE-TIME:20261102T190000Z
        DESCRIPTION:Default Mozilla Description
        END:VALARM
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER;VALUE=DURATION;RELATED=END:-PT1H30M
        DESCRIPTION:Default Mozilla Description
        END:VALARM
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER;VALUE=DURATION:PT15M
        DESCRIPTION:Default Mozilla Description
        END:VALARM
        END:VEVENT
        BEGIN:VEVENT
        CREATED:20261001T190000Z
        LAST-MODIFIED:20261001T190500Z
        DTSTAMP:20261001T190500Z
        UID:2a9d4c6e-8f10-4b32-a5c7-9e1d3f5b7a90
        SUMMARY:Weekend w SPA – Nałęczów
        CATEGORIES:Relaks
        DTSTART;VALUE=DATE:20261024
        DTEND;VALUE=DATE:20261026
        TRANSP:TRANSPARENT
        X-MOZ-GENERATION:1
        END:VEVENT
        BEGIN:VTODO
        CREATED:20261101T101500Z
        LAST-MODIFIED:20261101T101500Z
        DTSTAMP:20261101T101500Z
        UID:b3c4d5e6-f708-4a1b-9c2d-3e4f5a6b7c8d
        SUMMARY:Kupić odżywkę do włosów
        STATUS:NEEDS-ACTION
        DUE;VALUE=DATE:20261130
        END:VTODO
        END:VCALENDAR
        """#)

    /// Apple Calendar (macOS): X-APPLE-* properties with quoted parameters, an AUDIO alarm with
    /// X-WR-ALARMUID, Apple's ACTION:NONE placeholder alarm, and a UTC event.
    package static let apple = crlf(
        #"""
        BEGIN:VCALENDAR
        METHOD:PUBLISH
        VERSION:2.0
        X-WR-CALNAME:Beauty
        PRODID:-//Apple Inc.//macOS 15.1//EN
        X-APPLE-CALENDAR-COLOR:#CC73E1
        X-WR-TIMEZONE:America/New_York
        CALSCALE:GREGORIAN
        BEGIN:VTIMEZONE
        TZID:America/New_York
        BEGIN:DAYLIGHT
        TZOFFSETFROM:-0500
        RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU
        DTSTART:20070311T020000
        TZNAME:EDT
        TZOFFSETTO:-0400
        END:DAYLIGHT
        BEGIN:STANDARD
        TZOFFSETFROM:-0400
        RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU
        DTSTART:20071104T020000
        TZNAME:EST
        TZOFFSETTO:-0500
        END:STANDARD
        END:VTIMEZONE
        BEGIN:VEVENT
        TRANSP:OPAQUE
        DTEND;TZID=America/New_York:20261102T113000
        UID:9E5B2C1A-3D4F-4A6B-8C7D-0E1F2A3B4C5D
        DTSTAMP:20261025T150512Z
        LOCATION:Glow Skin Studio\n350 5th Ave\, New York\, NY 10118\, United State
         s
        X-APPLE-STRUCTURED-LOCATION;VALUE=URI;X-ADDRESS="350 5th Ave\\nNew York, NY
          10118\\nUnited States";X-APPLE-MAPKIT-HANDLE=CAESvAEIrk0QvK/u1Mfr8rM+GhIJ
         2zNLAtNfREARwY+qrmF/UsAiagoNVW5pdGVkIFN0YXRlcxICVVMaCE5ldyBZb3JrKgNOWTI;X-
         APPLE-RADIUS=70.58;X-TITLE="Glow Skin Studio":geo:40.748441,-73.985664
        SEQUENCE:1
        X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC
        SUMMARY:Facial – HydraFacial
        LAST-MODIFIED:20261025T150500Z
        CREATED:20261020T120000Z
        DTSTART;TZID=America/New_York:20261102T103000
        BEGIN:VALARM
        X-WR-ALARMUID:5C0E3C61-4D2B-4E8A-9F71-2B3C4D5E6F70
        UID:5C0E3C61-4D2B-4E8A-9F71-2B3C4D5E6F70
        TRIGGER:-PT1H
        ATTACH;VALUE=URI:Chord
        ACTION:AUDIO
        X-APPLE-DEFAULT-ALARM:TRUE
        ACKNOWLEDGED:20261102T143000Z
        END:VALARM
        BEGIN:VALARM
        X-WR-ALARMUID:A1B2C3D4-E5F6-4789-ABCD-EF0123456789
        UID:A1B2C3D4-E5F6-4789-ABCD-EF0123456789
        TRIGGER;VALUE=DATE-TIME:19760401T005545Z
        ACTION:NONE
        END:VALARM
        END:VEVENT
        BEGIN:VEVENT
        TRANSP:OPAQUE
        DTEND:20261115T180000Z
        UID:3F2504E0-4F89-11D3-9A0C-0305E82C3301
        DTSTAMP:20261025T150512Z
        URL;VALUE=URI:https://meet.example.com/derm-consult
        SEQUENCE:0
        SUMMARY:Video consult – dermatologist
        LAST-MODIFIED:20261025T150000Z
        CREATED:20261025T150000Z
        DTSTART:20261115T170000Z
        DESCRIPTION:Bring photos of the rash\; list the creams used so far.
        BEGIN:VALARM
        X-WR-ALARMUID:0F1E2D3C-4B5A-4968-8776-655443322110
        UID:0F1E2D3C-4B5A-4968-8776-655443322110
        TRIGGER:-PT15M
        ACTION:DISPLAY
        DESCRIPTION:Reminder
        END:VALARM
        END:VEVENT
        END:VCALENDAR
        """#)

    /// Outlook 16: Windows zone name in TZID with its VTIMEZONE, a very long folded UID, an
    /// all-day event.
    package static let outlook = crlf(
        #"""
        BEGIN:VCALENDAR
        PRODID:-//Microsoft Corporation//Outlook 16.0 MIMEDIR//EN
        VERSION:2.0
        METHOD:PUBLISH
        X-CALSTART:20270101T000000
        X-CALEND:20270328T110000
        X-WR-RELCALID:{0000002E-1B7C-8A3B-4D1C-6E5F2A9B0C11}
        X-WR-CALNAME:Kalendarz
        X-PRIMARY-CALENDAR:TRUE
        X-OWNER;CN="Anna Kowalska":mailto:anna.kowalska@outlook.com
        X-MS-OLK-WKHRSTART;TZID="Central European Standard Time":080000
        X-MS-OLK-WKHREND;TZID="Central European Standard Time":170000
        X-MS-OLK-WKHRDAYS:MO,TU,WE,TH,FR
        BEGIN:VTIMEZONE
        TZID:Central European Standard Time
        BEGIN:STANDARD
        DTSTART:16011028T030000
        RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10
        TZOFFSETFROM:+0200
        TZOFFSETTO:+0100
        END:STANDARD
        BEGIN:DAYLIGHT
        DTSTART:16010325T020000
        RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3
        TZOFFSETFROM:+0100
        TZOFFSETTO:+0200
        END:DAYLIGHT
        END:VTIMEZONE
        BEGIN:VEVENT
        CLASS:PUBLIC
        CREATED:20261105T120000Z
        DESCRIPTION:Masaż relaksacyjny 60 min. Proszę przyjść 10 minut wcześni
         ej.\n\n
        DTEND;TZID=Central European Standard Time:20270328T110000
        DTSTAMP:20261105T120000Z
        DTSTART;TZID=Central European Standard Time:20270328T100000
        LAST-MODIFIED:20261105T120000Z
        LOCATION:Gabinet Masażu Relaks\, Kraków
        PRIORITY:5
        SEQUENCE:0
        SUMMARY;LANGUAGE=pl:Masaż
        TRANSP:OPAQUE
        UID:040000008200E00074C5B7101A82E00800000000D0F1B6A3E64EDB01000000000000000
         010000000A1B2C3D4E5F60718293A4B5C6D7E8F90
        X-ALT-DESC;FMTTYPE=text/html:<html><body><p>Masaż relaksacyjny 60 min. Pro
         szę przyjść 10 minut wcześniej.</p></body></html>
        X-MICROSOFT-CDO-BUSYSTATUS:BUSY
        X-MICROSOFT-CDO-IMPORTANCE:1
        X-MICROSOFT-DISALLOW-COUNTER:FALSE
        X-MS-OLK-AUTOFILLLOCATION:FALSE
        X-MS-OLK-CONFTYPE:0
        BEGIN:VALARM
        TRIGGER:-PT15M
        ACTION:DISPLAY
        DESCRIPTION:Reminder
        END:VALARM
        END:VEVENT
        BEGIN:VEVENT
        CLASS:PUBLIC
        CREATED:20261105T121500Z
        DTEND;VALUE=DATE:20270102
        DTSTAMP:20261105T121500Z
        DTSTART;VALUE=DATE:20270101
        LAST-MODIFIED:20261105T121500Z
        PRIORITY:5
        SEQUENCE:0
        SUMMARY;LANGUAGE=pl:Nowy Rok – salon nieczynny
        TRANSP:TRANSPARENT
        UID:040000008200E00074C5B7101A82E00800000000E1A2B3C4D5E6DB01000000000000000
         010000000FEDCBA98765432100123456789ABCDEF
        X-MICROSOFT-CDO-ALLDAYEVENT:TRUE
        X-MICROSOFT-CDO-BUSYSTATUS:FREE
        END:VEVENT
        END:VCALENDAR
        """#)

    /// Google Calendar export the end-to-end import reads: a six-weekly colouring series in Warsaw time
    /// from January 2027 with a 30-minute alarm, a manicure in UTC, and an all-day spa day.
    package static let googleSeries = crlf(
        #"""
        \#(googleHeader)
        \#(googleWarsawZone)
        BEGIN:VEVENT
        DTSTART;TZID=Europe/Warsaw:20270112T150000
        DTEND;TZID=Europe/Warsaw:20270112T163000
        RRULE:FREQ=WEEKLY;WKST=MO;COUNT=6;INTERVAL=6;BYDAY=TU
        DTSTAMP:20261120T101500Z
        UID:4k2h7c9q1v3m5n8p0r6s2t4u6w@google.com
        CREATED:20261101T090000Z
        DESCRIPTION:Farbowanie + strzyżenie\, zapytać o Olaplex.\nKod do bramy: 12
         34\; parking od podwórza.
        LAST-MODIFIED:20261120T101500Z
        LOCATION:Salon Anna\, ul. Długa 5\, Kraków
        SEQUENCE:0
        STATUS:CONFIRMED
        SUMMARY:Fryzjer – koloryzacja
        TRANSP:OPAQUE
        BEGIN:VALARM
        ACTION:DISPLAY
        DESCRIPTION:This is an event reminder
        TRIGGER:-PT30M
        END:VALARM
        END:VEVENT
        BEGIN:VEVENT
        DTSTART:20261215T093000Z
        DTEND:20261215T103000Z
        DTSTAMP:20261120T101500Z
        UID:7f3a9b2c5d8e1f4a6b0c@google.com
        CREATED:20261110T120000Z
        LAST-MODIFIED:20261110T120000Z
        SEQUENCE:1
        STATUS:CONFIRMED
        SUMMARY:Manicure hybrydowy
        TRANSP:OPAQUE
        BEGIN:VALARM
        ACTION:DISPLAY
        DESCRIPTION:This is an event reminder
        TRIGGER:-P0DT0H30M0S
        END:VALARM
        END:VEVENT
        BEGIN:VEVENT
        DTSTART;VALUE=DATE:20261224
        DTEND;VALUE=DATE:20261225
        DTSTAMP:20261120T101500Z
        UID:0a1b2c3d4e5f6a7b8c9d@google.com
        SEQUENCE:0
        STATUS:CONFIRMED
        SUMMARY:Spa day
        TRANSP:TRANSPARENT
        END:VEVENT
        END:VCALENDAR
        """#)
}
