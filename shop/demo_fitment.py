"""The demo shop's bikes and which demo part fits which (`manage.py seed_demo`): real
motorcycles and their model years, so a new shop shows the garage at work. Parts marked
universal in shop/demo_data.py fit every bike and are not listed here."""

# (make, model, first year, last year): one vehicle per model year.
BIKES = (
    ("BMW", "R 1250 GS", 2019, 2023),
    ("Ducati", "Monster", 2021, 2023),
    ("Harley-Davidson", "Sportster S", 2021, 2023),
    ("Honda", "CB500F", 2013, 2023),
    ("Honda", "CBR600RR", 2013, 2020),
    ("Kawasaki", "Ninja 650", 2017, 2023),
    ("Kawasaki", "Z900", 2017, 2023),
    ("KTM", "390 Duke", 2017, 2023),
    ("Suzuki", "SV650", 2016, 2023),
    ("Triumph", "Street Triple", 2017, 2023),
    ("Yamaha", "MT-07", 2014, 2023),
    ("Yamaha", "MT-09", 2014, 2023),
)

# A demo part's name: the bikes it fits, as (make, model, first year, last year).
FITS = {
    "Apex 320 mm Floating Front Brake Disc": [
        ("Yamaha", "MT-07", 2014, 2023),
        ("Yamaha", "MT-09", 2014, 2020),
        ("Suzuki", "SV650", 2016, 2023),
    ],
    "520 O-Ring Chain and Sprocket Kit 15/45": [
        ("Honda", "CB500F", 2013, 2023),
        ("Kawasaki", "Ninja 650", 2017, 2023),
        ("KTM", "390 Duke", 2017, 2023),
        ("Yamaha", "MT-07", 2014, 2023),
    ],
    "Sintered HH Front Brake Pads": [
        ("Yamaha", "MT-07", 2014, 2023),
        ("Yamaha", "MT-09", 2014, 2023),
        ("Honda", "CBR600RR", 2013, 2020),
    ],
    "Stainless Slip-On Exhaust Muffler 51 mm": [
        ("Kawasaki", "Z900", 2017, 2023),
        ("Kawasaki", "Ninja 650", 2017, 2023),
        ("Harley-Davidson", "Sportster S", 2021, 2023),
    ],
    "Piggyback Rear Shock Absorber 330 mm": [
        ("Triumph", "Street Triple", 2017, 2023),
        ("Ducati", "Monster", 2021, 2023),
        ("BMW", "R 1250 GS", 2019, 2023),
    ],
    "Sport Radial Rear Tyre 180/55 ZR17": [
        ("Yamaha", "MT-09", 2014, 2023),
        ("Kawasaki", "Z900", 2017, 2023),
        ("Triumph", "Street Triple", 2017, 2023),
        ("Ducati", "Monster", 2021, 2023),
        ("Honda", "CBR600RR", 2013, 2020),
    ],
    "High-Flow Cone Air Filter 54 mm": [
        ("Suzuki", "SV650", 2016, 2023),
        ("Kawasaki", "Ninja 650", 2017, 2019),
    ],
    "Iridium Spark Plug CR9EIX": [
        ("Honda", "CB500F", 2013, 2023),
        ("Kawasaki", "Z900", 2017, 2023),
        ("Suzuki", "SV650", 2016, 2023),
    ],
    "Spin-On Oil Filter HF204": [
        ("Yamaha", "MT-07", 2014, 2023),
        ("Yamaha", "MT-09", 2014, 2023),
        ("Honda", "CB500F", 2013, 2023),
        ("Kawasaki", "Z900", 2017, 2023),
        ("Kawasaki", "Ninja 650", 2017, 2023),
        ("Triumph", "Street Triple", 2017, 2023),
    ],
    "12 V AGM Battery YTX9-BS": [
        ("Kawasaki", "Ninja 650", 2017, 2023),
        ("Suzuki", "SV650", 2016, 2023),
        ("BMW", "R 1250 GS", 2019, 2023),
    ],
    "CNC Adjustable Clutch Lever": [
        ("Yamaha", "MT-07", 2014, 2023),
        ("Yamaha", "MT-09", 2014, 2020),
        ("KTM", "390 Duke", 2017, 2023),
    ],
}
